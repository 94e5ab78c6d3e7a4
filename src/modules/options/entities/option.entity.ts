import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('options')
export class OptionEntity {
  @PrimaryColumn({ type: 'varchar', length: 191 })
  key: string;

  @Column({ type: 'text' })
  value: string;
}
