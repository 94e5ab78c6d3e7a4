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

  /** The browser's User-Agent at sign-in (cut to 255), shown as the device in the session list. */
  @Column({ type: 'varchar', length: 255, default: '' })
  user_agent: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  ip: string;

  /** Updated at most once a minute per session, so a busy console does not write on every call. */
  @BigIntColumn()
  last_seen: number;
}
