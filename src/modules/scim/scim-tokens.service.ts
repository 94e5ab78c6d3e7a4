import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { AuthenticatedUser } from '../../common/auth/auth.decorators';
import { randomAlphanumeric, SECRET_BOX, SecretBox } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { nowSeconds } from '../../database/columns';
import { AuditService } from '../audit/audit.service';
import { ScimTokenEntity } from './entities/scim-token.entity';
import type { ScimTokenCreatedView, ScimTokenView } from './scim.wire';

/** What a token looks like: a prefix secret scanners can find, then 40 random letters and digits (~238 bits). */
const TOKEN_PREFIX = 'scim_';
const TOKEN_PATTERN = /^scim_[A-Za-z0-9]{40}$/;
/** How often a token's last-used time is written at most. */
const LAST_USED_RESOLUTION_SECONDS = 60;

/** The token an identity provider called with: its name goes into the audit log as the actor. */
export interface ScimCaller {
  tokenId: number;
  tokenName: string;
  ip: string;
}

function toView(row: ScimTokenEntity): ScimTokenView {
  return { id: row.id, name: row.name, created_time: row.created_time, last_used_time: row.last_used_time };
}

/** Root's SCIM bearer tokens: made (shown once), listed, revoked, and checked on every /scim/v2 call. */
@Injectable()
export class ScimTokensService {
  constructor(
    @InjectRepository(ScimTokenEntity) private readonly rows: Repository<ScimTokenEntity>,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly audit: AuditService,
  ) {}

  async list(): Promise<ScimTokenView[]> {
    return (await this.rows.find({ order: { id: 'ASC' } })).map(toView);
  }

  async create(actor: AuthenticatedUser, name: string): Promise<ScimTokenCreatedView> {
    const token = TOKEN_PREFIX + randomAlphanumeric(40);
    const row: Omit<ScimTokenEntity, 'id'> = { name: name.trim(), token_hash: this.box.keyedHash(token), created_time: nowSeconds(), last_used_time: 0 };
    if (!row.name) throw new AppError('scim.token_name_required');
    const { identifiers } = await this.rows.insert(row);
    const id = Number(identifiers[0].id);
    await this.audit.record(actor, { entity: 'scim_token', entityId: id, action: 'create', changes: { name: { from: null, to: row.name }, token: { changed: true } } });
    return { ...toView({ ...row, id }), token };
  }

  async revoke(actor: AuthenticatedUser, id: number): Promise<void> {
    const row = await this.rows.findOneBy({ id });
    if (!row) throw new AppError('scim.token_not_found');
    await this.rows.delete({ id });
    await this.audit.record(actor, { entity: 'scim_token', entityId: id, action: 'delete', changes: { name: { from: row.name, to: null } } });
  }

  /** The caller a bearer token belongs to, or null; the token is compared only as its keyed hash. */
  async authenticate(token: string, ip: string): Promise<ScimCaller | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await this.rows.findOneBy({ token_hash: this.box.keyedHash(token) });
    if (!row) return null;
    const now = nowSeconds();
    if (now - row.last_used_time >= LAST_USED_RESOLUTION_SECONDS) {
      // Conditional, so instances racing on the same token write it once.
      await this.rows.update({ id: row.id, last_used_time: LessThan(now - LAST_USED_RESOLUTION_SECONDS + 1) }, { last_used_time: now });
    }
    return { tokenId: row.id, tokenName: row.name, ip };
  }
}
