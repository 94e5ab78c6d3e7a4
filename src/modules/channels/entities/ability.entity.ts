import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** One (group, model, channel) a request can be routed through; kept in step with every channel write. */
@Entity('abilities')
export class AbilityEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  group: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  model: string;

  @PrimaryColumn({ type: 'integer' })
  channel_id: number;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @BigIntColumn()
  priority: number;

  @Column({ type: 'integer', default: 0 })
  weight: number;

  @Column({ type: 'varchar', length: 64, nullable: true })
  tag: string | null;
}
