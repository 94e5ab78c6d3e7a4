import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A log row on its way to the separate log database (see LogOutboxService); its id becomes the row's id there. */
@Entity('log_outbox')
export class LogOutboxEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** The log row's columns (LogRow) as JSON. */
  @Column({ type: 'text' })
  payload: string;
}
