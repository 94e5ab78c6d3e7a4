import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LessThan, Repository } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RedisService } from '../../common/redis/redis.service';
import { sha256Hex } from '../../common/crypto/secret-box';
import { nowSeconds } from '../../database/columns';
import { SessionEntity } from './entities/session.entity';

export const SESSION_COOKIE = 'session';
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export interface SessionRecord {
  id: string;
  userId: number;
}

/**
 * Server-side sessions behind a signed cookie. The cookie holds a random secret and its
 * HMAC; the store keys the session by the secret's sha256. Sessions live in Redis when it
 * is configured, otherwise in the database, so a restart keeps people signed in.
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectRepository(SessionEntity) private readonly repository: Repository<SessionEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  /** Creates a session and returns the cookie value. */
  async create(userId: number): Promise<string> {
    const secret = randomBytes(24).toString('base64url');
    const id = sha256Hex(secret);
    const now = nowSeconds();
    const redis = this.redis.client;
    if (redis) {
      // Separate commands, because on a Redis Cluster the two keys live in different slots. The
      // index goes first, so signing out everywhere never misses a live session.
      await redis.sadd(`user-sessions:${userId}`, id);
      await redis.set(`session:${id}`, String(userId), 'EX', SESSION_TTL_SECONDS);
    } else {
      await this.repository.insert({ id, user_id: userId, created_time: now, expires_at: now + SESSION_TTL_SECONDS });
    }
    return `${secret}.${this.sign(secret)}`;
  }

  async resolve(cookieValue: string | undefined): Promise<SessionRecord | null> {
    const secret = this.verify(cookieValue);
    if (!secret) return null;
    const id = sha256Hex(secret);
    const redis = this.redis.client;
    if (redis) {
      const userId = await redis.get(`session:${id}`);
      return userId ? { id, userId: Number(userId) } : null;
    }
    const row = await this.repository.findOneBy({ id });
    if (!row || row.expires_at <= nowSeconds()) return null;
    return { id, userId: row.user_id };
  }

  async destroy(id: string): Promise<void> {
    const redis = this.redis.client;
    if (redis) {
      const userId = await redis.get(`session:${id}`);
      await redis.del(`session:${id}`);
      if (userId) await redis.srem(`user-sessions:${userId}`, id);
      return;
    }
    await this.repository.delete({ id });
  }

  /** Signs a user out everywhere (ban, deletion, password change), optionally keeping one session. */
  async destroyAllForUser(userId: number, keepSessionId?: string): Promise<void> {
    const redis = this.redis.client;
    if (redis) {
      const ids = (await redis.smembers(`user-sessions:${userId}`)).filter((id) => id !== keepSessionId);
      if (ids.length === 0) return;
      // One DEL per session: a Cluster refuses a DEL across slots.
      await Promise.all(ids.map((id) => redis.del(`session:${id}`)));
      await redis.srem(`user-sessions:${userId}`, ...ids);
      return;
    }
    const rows = await this.repository.findBy({ user_id: userId });
    const ids = rows.map((row) => row.id).filter((id) => id !== keepSessionId);
    if (ids.length) await this.repository.delete(ids);
  }

  async deleteExpired(): Promise<number> {
    const result = await this.repository.delete({ expires_at: LessThan(nowSeconds()) });
    return result.affected ?? 0;
  }

  private sign(secret: string): string {
    return createHmac('sha256', this.config.sessionSecret).update(secret).digest('base64url');
  }

  private verify(cookieValue: string | undefined): string | null {
    if (!cookieValue) return null;
    const dot = cookieValue.lastIndexOf('.');
    if (dot <= 0) return null;
    const secret = cookieValue.slice(0, dot);
    const given = Buffer.from(cookieValue.slice(dot + 1));
    const expected = Buffer.from(this.sign(secret));
    return given.length === expected.length && timingSafeEqual(given, expected) ? secret : null;
  }
}
