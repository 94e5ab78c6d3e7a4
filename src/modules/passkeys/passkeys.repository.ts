import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { sha256Hex } from '../../common/crypto/secret-box';
import { nowSeconds } from '../../database/columns';
import { PasskeyEntity } from './entities/passkey.entity';

/** What a registration stores about a new credential. */
export type NewPasskey = Pick<PasskeyEntity, 'user_id' | 'name' | 'credential_id' | 'public_key' | 'user_handle' | 'counter' | 'transports' | 'backed_up'>;

/** The passkeys table's named queries. */
@Injectable()
export class PasskeysRepository {
  constructor(@InjectRepository(PasskeyEntity) private readonly passkeys: Repository<PasskeyEntity>) {}

  listByUser(userId: number): Promise<PasskeyEntity[]> {
    return this.passkeys.find({ where: { user_id: userId }, order: { id: 'ASC' } });
  }

  countByUser(userId: number): Promise<number> {
    return this.passkeys.countBy({ user_id: userId });
  }

  getByCredentialId(credentialId: string): Promise<PasskeyEntity | null> {
    return this.passkeys.findOneBy({ credential_hash: sha256Hex(credentialId) });
  }

  async insert(passkey: NewPasskey): Promise<PasskeyEntity> {
    const row = { ...passkey, credential_hash: sha256Hex(passkey.credential_id), created_time: nowSeconds(), last_used_time: 0 };
    const result = await this.passkeys.insert(row);
    return { ...row, id: Number(result.identifiers[0].id) };
  }

  async rename(userId: number, id: number, name: string): Promise<boolean> {
    const result = await this.passkeys.update({ id, user_id: userId }, { name });
    return (result.affected ?? 0) > 0;
  }

  async remove(userId: number, id: number): Promise<boolean> {
    const result = await this.passkeys.delete({ id, user_id: userId });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Records a sign-in: the new counter and time, claimed only while the counter is still the
   * one the assertion was checked against, so two racing assertions cannot both pass.
   */
  async claimUse(passkey: PasskeyEntity, newCounter: number, backedUp: boolean): Promise<boolean> {
    const result = await this.passkeys
      .createQueryBuilder()
      .update()
      .set({ counter: newCounter, last_used_time: nowSeconds(), backed_up: backedUp })
      .where('id = :id AND counter = :counter', { id: passkey.id, counter: passkey.counter })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
