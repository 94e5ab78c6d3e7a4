import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

/** What the pricing page and playground tell about one model name. Lists are comma-separated. */
@Entity('model_meta')
export class ModelMetaEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** Unique; matched exactly against the names channels serve. */
  @Column({ type: 'varchar', length: 255 })
  model_name: string;

  @Column({ type: 'varchar', length: 1000, default: '' })
  description: string;

  /** 0: no vendor. */
  @Column({ type: 'integer', default: 0 })
  vendor_id: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  tags: string;

  @Column({ type: 'integer', default: 0 })
  context_length: number;

  @Column({ type: 'integer', default: 0 })
  max_output: number;

  @Column({ type: 'varchar', length: 128, default: '' })
  input_modalities: string;

  @Column({ type: 'varchar', length: 128, default: '' })
  output_modalities: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  icon: string;

  @BigIntColumn()
  created_time: number;

  @BigIntColumn()
  updated_time: number;
}
