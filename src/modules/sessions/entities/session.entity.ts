import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** A signed-in browser. The id is the sha256 of the cookie's secret part, so a database leak signs nobody in. */
@Entity('sessions')
export class SessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Column({ type: 'integer' })
  user_id: number;

  @BigIntColumn()
  created_time: number;

  @BigIntColumn()
  expires_at: number;
}
