import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { OptionsService } from '../options/options.service';
import { MidjourneyPollerService } from './midjourney/midjourney-poller.service';
import { SunoPollerService } from './suno/suno-poller.service';

const POLL_INTERVAL_MS = 15_000;

/** Polls unfinished tasks every 15 s while their relay is switched on. */
@Injectable()
export class TasksJobs {
  private readonly logger = new Logger(TasksJobs.name);

  constructor(
    private readonly options: OptionsService,
    private readonly midjourney: MidjourneyPollerService,
    private readonly suno: SunoPollerService,
  ) {}

  @Interval(POLL_INTERVAL_MS)
  async pollMidjourney(): Promise<void> {
    if (!this.options.get('DrawingEnabled')) return;
    await this.midjourney.pollOnce().catch((error: Error) => this.logger.error(`drawing poll failed: ${error.message}`));
  }

  @Interval(POLL_INTERVAL_MS)
  async pollSuno(): Promise<void> {
    if (!this.options.get('TaskEnabled')) return;
    await this.suno.pollOnce().catch((error: Error) => this.logger.error(`task poll failed: ${error.message}`));
  }
}
