import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LessThan, MoreThan, Repository } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RedisService } from '../../common/redis/redis.service';
import { sha256Hex } from '../../common/crypto/secret-box';
import { nowSeconds } from '../../database/columns';
import { SessionEntity } from './entities/session.entity';
import { SessionDetails, toSessionView } from './session.view';
import type { SessionView } from './sessions.wire';
import { AppError } from '../../common/errors/app-error';

export const SESSION_COOKIE = 'session';
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export interface SessionRecord {
  id: string;
  userId: number;
}

/** Where a sign-in came from, kept with the session for the owner's session list. */
export interface SessionClient {
  userAgent: string;
  ip: string;
}

/** How often a session's last-seen time is written at most. */
const LAST_SEEN_RESOLUTION_SECONDS = 60;

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

  /** When this instance last wrote each session's last-seen time (both stores), to write it at most once a minute. */
  private readonly lastSeenWritten = new Map<string, number>();

  /** Creates a session and returns the cookie value. */
  async create(userId: number, client: SessionClient = { userAgent: '', ip: '' }): Promise<string> {
    const secret = randomBytes(24).toString('base64url');
    const id = sha256Hex(secret);
    const now = nowSeconds();
    const userAgent = client.userAgent.slice(0, 255);
    const ip = client.ip.slice(0, 64);
    const redis = this.redis.client;
    if (redis) {
      // Separate commands, because on a Redis Cluster these keys live in different slots. The
      // index goes first, so signing out everywhere never misses a live session.
      await redis.sadd(`user-sessions:${userId}`, id);
      await redis.set(`session:${id}`, String(userId), 'EX', SESSION_TTL_SECONDS);
      await redis.hset(`session-meta:${id}`, { user_agent: userAgent, ip, created_time: now, last_seen: now });
      await redis.expire(`session-meta:${id}`, SESSION_TTL_SECONDS);
    } else {
      await this.repository.insert({ id, user_id: userId, created_time: now, expires_at: now + SESSION_TTL_SECONDS, user_agent: userAgent, ip, last_seen: now });
    }
    this.lastSeenWritten.set(id, now);
    return `${secret}.${this.sign(secret)}`;
  }

  async resolve(cookieValue: string | undefined): Promise<SessionRecord | null> {
    const secret = this.verify(cookieValue);
    if (!secret) return null;
    const id = sha256Hex(secret);
    const redis = this.redis.client;
    if (redis) {
      const userId = await redis.get(`session:${id}`);
      if (!userId) return null;
      await this.touch(id);
      return { id, userId: Number(userId) };
    }
    const row = await this.repository.findOneBy({ id });
    if (!row || row.expires_at <= nowSeconds()) return null;
    await this.touch(id, row.last_seen);
    return { id, userId: row.user_id };
  }

  /** The user's live sessions, most recently seen first. */
  private async listForUser(userId: number): Promise<SessionDetails[]> {
    const redis = this.redis.client;
    let details: SessionDetails[];
    if (redis) {
      const ids = await redis.smembers(`user-sessions:${userId}`);
      // One command per key, not a pipeline: on a Redis Cluster the keys live in different slots.
      const replies = await Promise.all(ids.flatMap((id): Promise<unknown>[] => [redis.exists(`session:${id}`), redis.hgetall(`session-meta:${id}`)]));
      details = [];
      const gone: string[] = [];
      ids.forEach((id, index) => {
        const alive = replies[index * 2] === 1;
        const meta = (replies[index * 2 + 1] ?? {}) as Record<string, string>;
        if (!alive) gone.push(id);
        else details.push({ id, userAgent: meta.user_agent ?? '', ip: meta.ip ?? '', createdTime: Number(meta.created_time ?? 0), lastSeen: Number(meta.last_seen ?? 0) });
      });
      // Sessions that expired by TTL leave their id in the user's set; tidy it here.
      if (gone.length) await redis.srem(`user-sessions:${userId}`, ...gone);
    } else {
      const rows = await this.repository.findBy({ user_id: userId, expires_at: MoreThan(nowSeconds()) });
      details = rows.map((row) => ({ id: row.id, userAgent: row.user_agent, ip: row.ip, createdTime: row.created_time, lastSeen: row.last_seen }));
    }
    return details.sort((a, b) => b.lastSeen - a.lastSeen);
  }

  /** The session list as the personal page shows it. */
  async listViews(userId: number, currentSessionId: string | undefined): Promise<SessionView[]> {
    return (await this.listForUser(userId)).map((details) => toSessionView(details, currentSessionId));
  }

  /** Ends one of the user's own sessions. */
  async revoke(userId: number, id: string): Promise<void> {
    const redis = this.redis.client;
    if (redis) {
      if ((await redis.get(`session:${id}`)) !== String(userId)) throw new AppError('session.not_found');
      await this.destroy(id);
      return;
    }
    const result = await this.repository.delete({ id, user_id: userId });
    if (!result.affected) throw new AppError('session.not_found');
  }

  /** Writes the last-seen time when this instance has not written it in the last minute. */
  private async touch(id: string, storedLastSeen?: number): Promise<void> {
    const now = nowSeconds();
    const written = Math.max(this.lastSeenWritten.get(id) ?? 0, storedLastSeen ?? 0);
    if (now - written < LAST_SEEN_RESOLUTION_SECONDS) return;
    this.lastSeenWritten.set(id, now);
    if (this.lastSeenWritten.size > 10_000) this.lastSeenWritten.clear();
    const redis = this.redis.client;
    if (redis) await redis.hset(`session-meta:${id}`, 'last_seen', now);
    else await this.repository.update({ id }, { last_seen: now });
  }

  async destroy(id: string): Promise<void> {
    const redis = this.redis.client;
    if (redis) {
      const userId = await redis.get(`session:${id}`);
      // One DEL per key: a Cluster refuses a DEL across slots.
      await Promise.all([redis.del(`session:${id}`), redis.del(`session-meta:${id}`)]);
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
      // One DEL per key: a Cluster refuses a DEL across slots.
      await Promise.all(ids.flatMap((id) => [redis.del(`session:${id}`), redis.del(`session-meta:${id}`)]));
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
