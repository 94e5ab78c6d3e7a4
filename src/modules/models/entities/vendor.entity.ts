import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Who makes models (OpenAI, Anthropic, …): the pricing page groups by it. */
@Entity('vendors')
export class VendorEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** Unique. */
  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  icon: string;
}
