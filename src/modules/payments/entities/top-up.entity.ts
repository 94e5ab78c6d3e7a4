import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../../../database/columns';

export type TopUpStatus = 'pending' | 'success';

/** One online top-up order. `money` is what the provider must confirm, to the cent. */
@Entity('top_ups')
export class TopUpEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer' })
  user_id: number;

  /** Units bought (dollars of quota: amount × QuotaPerUnit). */
  @BigIntColumn()
  amount: number;

  /** The payable amount in the provider's currency, as the "0.00" text it signs. */
  @Column({ type: 'varchar', length: 32, default: '0.00' })
  money: string;

  /** Credited on success; fixed when the order is made. */
  @BigIntColumn()
  quota: number;

  @Column({ type: 'varchar', length: 64 })
  trade_no: string;

  @Column({ type: 'varchar', length: 32, default: '' })
  payment_method: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: TopUpStatus;

  /** A subscription plan bought by this order instead of quota (quota is then 0); 0 for a top-up. */
  @Column({ type: 'integer', default: 0 })
  plan_id: number;

  @BigIntColumn()
  create_time: number;

  @BigIntColumn()
  complete_time: number;
}
