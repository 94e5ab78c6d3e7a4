import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** One change an administrator made: who, from where, when, to what, and the fields it changed. Never edited. */
@Entity('audit_logs')
export class AuditLogEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @BigIntColumn()
  created_at: number;

  @Column({ type: 'integer', default: 0 })
  actor_id: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  actor_username: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  actor_ip: string;

  @Column({ type: 'varchar', length: 32, default: '' })
  entity: string;

  @Column({ type: 'varchar', length: 191, default: '' })
  entity_id: string;

  @Column({ type: 'varchar', length: 32, default: '' })
  action: string;

  /** JSON: field → {from, to}, or {changed: true} where the value is a secret. */
  @Column({ type: 'text', nullable: true })
  changes: string | null;

  @Column({ type: 'integer', default: 0 })
  log_id: number;
}
