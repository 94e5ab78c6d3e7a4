import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** One row, id 1, once the first-run setup has finished. */
@Entity('setups')
export class SetupEntity {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 32 })
  version: string;

  @BigIntColumn()
  initialized_at: number;
}
