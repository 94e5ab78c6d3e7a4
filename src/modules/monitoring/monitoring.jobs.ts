import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ChannelBalanceService } from './channel-balance.service';
import { ChannelProbeService } from './channel-probe.service';

export const CHANNEL_TESTS_JOB = 'channel-tests';
export const CHANNEL_BALANCES_JOB = 'channel-balances';

/**
 * Channel tests every CHANNEL_TEST_FREQUENCY minutes and balance updates every
 * CHANNEL_UPDATE_FREQUENCY minutes, as new-api reads them from the environment. The periods
 * come from the environment, so the intervals are registered here rather than by decorator;
 * like every job they run on the master instance only.
 */
@Injectable()
export class MonitoringJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MonitoringJobs.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly scheduler: SchedulerRegistry,
    private readonly probes: ChannelProbeService,
    private readonly balances: ChannelBalanceService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.nodeType !== 'master') return;
    this.every(CHANNEL_TESTS_JOB, this.config.channelTestFrequencyMinutes, (periodMs) => this.testChannels(periodMs));
    this.every(CHANNEL_BALANCES_JOB, this.config.channelUpdateFrequencyMinutes, () => this.updateBalances());
  }

  onApplicationShutdown(): void {
    for (const name of [CHANNEL_TESTS_JOB, CHANNEL_BALANCES_JOB]) {
      if (this.scheduler.doesExist('interval', name)) this.scheduler.deleteInterval(name);
    }
  }

  /** One scheduled round of channel tests; it ends within its period however slow the upstreams are. */
  async testChannels(periodMs: number): Promise<void> {
    const tested = await this.probes.testAll(Date.now() + periodMs);
    if (tested > 0) this.logger.log(`ran ${tested} channel tests`);
  }

  async updateBalances(): Promise<void> {
    const updated = await this.balances.updateAll();
    if (updated > 0) this.logger.log(`updated the balance of ${updated} channels`);
  }

  private every(name: string, minutes: number, run: (periodMs: number) => Promise<void>): void {
    if (minutes <= 0) return;
    const periodMs = Math.max(1000, Math.round(minutes * 60_000));
    const timer = setInterval(() => void run(periodMs).catch((error: Error) => this.logger.error(`${name} failed: ${error.message}`)), periodMs);
    timer.unref();
    this.scheduler.addInterval(name, timer);
  }
}
