import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { logContent, logText } from '../logs/log-text';
import { LogsService } from '../logs/logs.service';
import { MailService } from '../mail/mail.service';
import { ROLE_ROOT } from '../users/entities/user.entity';

/** The channel as a notice names it. */
export interface NoticeChannel {
  id: number;
  name: string;
}

/**
 * Tells the operator when a channel leaves or returns to service on its own: a system log
 * row (type 4) on the root user, an email to root (when mail is set up and root has an
 * address), and a warning in the server log. The email is not awaited: a slow mail server
 * must not hold up the job or the relay that changed the channel.
 */
@Injectable()
export class ChannelNoticesService {
  private readonly logger = new Logger(ChannelNoticesService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly logs: LogsService,
    private readonly mail: MailService,
  ) {}

  async channelStatusChanged(channel: NoticeChannel, change: 'enabled' | 'disabled', reason: string): Promise<void> {
    const subject = change === 'disabled' ? `通道「${channel.name}」（#${channel.id}）已被自动禁用` : `通道「${channel.name}」（#${channel.id}）已被自动启用`;
    const text = logText(change === 'disabled' ? 'channel_disabled' : 'channel_enabled', { channel: channel.name, id: channel.id, reason });
    this.logger.warn(`channel ${channel.id} (${channel.name}) ${change} automatically: ${reason}`);
    const root = await this.rootUser();
    if (!root) return;
    await this.logs.recordSystem(root, text);
    if (root.email && this.mail.isConfigured()) {
      // MailService logs its own failures; nothing else is to be done about one here.
      this.mail.send({ to: root.email, subject, text: logContent(text) }).catch(() => undefined);
    }
  }

  private async rootUser(): Promise<{ id: number; username: string; email: string } | undefined> {
    const row = await this.dataSource
      .createQueryBuilder()
      .select(['id', 'username', 'email'])
      .from('users', 'u')
      .where('role >= :root', { root: ROLE_ROOT })
      .orderBy('id', 'ASC')
      .limit(1)
      .getRawOne<{ id: number; username: string; email: string | null }>();
    return row ? { id: Number(row.id), username: row.username, email: row.email ?? '' } : undefined;
  }
}
