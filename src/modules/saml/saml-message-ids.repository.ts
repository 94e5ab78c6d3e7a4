import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import { LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { sha256Hex } from '../../common/crypto/secret-box';
import { nowSeconds } from '../../database/columns';
import { SamlMessageIdEntity, SamlMessageKind } from './entities/saml-message-id.entity';

/** Time a user has at the IdP (password, their own MFA) between our AuthnRequest and its answer. */
export const REQUEST_TTL_SECONDS = 15 * 60;

const keyOf = (kind: SamlMessageKind, id: string) => sha256Hex(`${kind}:${id}`);

/**
 * SAML message ids in the database, so that any instance can finish a sign-in another started
 * and no instance accepts an assertion another already used.
 */
@Injectable()
export class SamlMessageIdsRepository {
  constructor(@InjectRepository(SamlMessageIdEntity) private readonly repository: Repository<SamlMessageIdEntity>) {}

  /** node-saml's store of pending AuthnRequest ids (it saves on login, reads and removes at the ACS). */
  readonly requestCache: CacheProvider = {
    saveAsync: async (id: string, value: string): Promise<CacheItem> => {
      const now = nowSeconds();
      await this.repository.insert({ id_hash: keyOf('request', id), kind: 'request', created_at: now, expires_at: now + REQUEST_TTL_SECONDS });
      return { value, createdAt: now * 1000 };
    },
    // node-saml compares the answer, read as a date, with its own expiry period.
    getAsync: async (id: string): Promise<string | null> => {
      const row = await this.repository.findOneBy({ id_hash: keyOf('request', id), expires_at: MoreThan(nowSeconds()) });
      return row ? new Date(row.created_at * 1000).toISOString() : null;
    },
    removeAsync: async (id: string | null): Promise<string | null> => {
      if (id) await this.repository.delete({ id_hash: keyOf('request', id) });
      return id;
    },
  };

  async assertionUsed(id: string): Promise<boolean> {
    return this.repository.existsBy({ id_hash: keyOf('assertion', id) });
  }

  /**
   * Records the assertion as used until `expiresAt`; false when it already was. The primary key
   * decides between two instances presenting the same assertion at once.
   */
  async claimAssertion(id: string, expiresAt: number): Promise<boolean> {
    try {
      await this.repository.insert({ id_hash: keyOf('assertion', id), kind: 'assertion', created_at: nowSeconds(), expires_at: expiresAt });
      return true;
    } catch (error) {
      if (await this.assertionUsed(id)) return false;
      throw error;
    }
  }

  async deleteExpired(): Promise<number> {
    const result = await this.repository.delete({ expires_at: LessThanOrEqual(nowSeconds()) });
    return result.affected ?? 0;
  }
}
