import { channelTypesServedBy } from '../../channels/channel-types';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { In, Repository } from 'typeorm';
import { nowSeconds } from '../../../database/columns';
import { CHANNEL_STATUS_ENABLED } from '../../channels/entities/channel.entity';
import type { RelayChannel } from '../../relay/caches/relay-channel';
import type { RelayCaller } from '../../relay/relay-caller';
import { decodePathSegment, RelayError } from '../../relay/relay-error';
import { MidjourneyTaskEntity } from '../entities/midjourney-task.entity';
import { TaskCharge, taskOwnerColumns } from '../task-billing.service';
import { isAdmin, TaskRelayService } from '../task-relay.base';
import { isRecord, JsonRecord, sendJson, stringField } from '../task-relay-support.service';
import {
  actionOfCustomId,
  clearModeFlags,
  MIDJOURNEY_PLATFORM,
  isMjAction,
  MJ_ACCEPTED_CODES,
  MJ_CODE_ACCOUNT_BROKEN,
  MJ_SUBMIT_ACTIONS,
  MjAction,
  modelForAction,
  parseSimpleChange,
} from './midjourney-actions';
import { drawingImageUrl, toMidjourneyTaskDto } from './midjourney-task.view';

/** Channel types that speak Midjourney-Proxy: 2 Midjourney Proxy, 5 Midjourney Proxy Plus. */
export const MIDJOURNEY_CHANNEL_TYPES = channelTypesServedBy('midjourney');
const IMAGE_TIMEOUT_MS = 60_000;

/** `/mj/…` or `/{mode}/mj/…`: the mode (fast, turbo, relax) and the rest of the path. */
export function splitMidjourneyPath(path: string): { mode?: string; rest: string } | undefined {
  const match = /^(?:\/(fast|turbo|relax))?\/mj(\/.*)?$/.exec(path);
  if (!match) return undefined;
  return { mode: match[1], rest: match[2] ?? '/' };
}

/** The row a submit the upstream took starts as. */
interface SubmittedTask {
  mj_id: string;
  status: string;
  progress: string;
  image_url?: string;
  prompt: string;
  state: string;
}

/** An upload (as new-api records it): no task to poll, finished at once; the first link is its image. */
function uploadedTask(result: JsonRecord): Pick<SubmittedTask, 'mj_id' | 'status' | 'progress' | 'image_url'> {
  const links = Array.isArray(result.result) ? result.result.filter((link): link is string => typeof link === 'string') : [];
  return { mj_id: '', status: 'SUCCESS', progress: '100%', image_url: links[0] ?? '' };
}

/** What one submit is about: its action, and the earlier task it acts on (if any). */
interface SubmitPlan {
  action: MjAction;
  original?: MidjourneyTaskEntity;
}

/**
 * The Midjourney-Proxy relay: submits are billed at a fixed price per action (held first,
 * settled when the upstream takes the task, given back when it refuses), fetches answer from
 * our own table (the polling job keeps it current), and images can be proxied.
 */
@Injectable()
export class MidjourneyRelayService extends TaskRelayService<MidjourneyTaskEntity> {
  constructor(@InjectRepository(MidjourneyTaskEntity) tasks: Repository<MidjourneyTaskEntity>) {
    super(tasks, { option: 'DrawingEnabled', offMessage: 'Drawing is disabled by the administrator' });
  }

  protected async route(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const route = splitMidjourneyPath(path);
    if (!route) throw new RelayError('not_found', `Unknown endpoint ${path}`, 404);
    const { mode, rest } = route;
    const submit = /^\/submit\/([a-z-]+)$/.exec(rest);
    const fetchOne = /^\/task\/([^/]+)\/fetch$/.exec(rest);
    const image = /^\/image\/([^/]+)$/.exec(rest);
    if (submit && request.method === 'POST' && submit[1] in MJ_SUBMIT_ACTIONS) return this.submit(request, response, submit[1], mode);
    if (fetchOne && request.method === 'GET') return this.fetchTask(request, response, decodePathSegment(fetchOne[1]));
    if (rest === '/task/list-by-condition' && request.method === 'POST') return this.listByCondition(request, response);
    if (image && request.method === 'GET') return this.proxyImage(response, decodePathSegment(image[1]));
    throw new RelayError('not_found', `Unknown endpoint ${request.method} ${path}`, 404);
  }

  /** Midjourney-Proxy's answer shape: code 4 (validation) for the client's faults, 9 (failure) otherwise. */
  protected errorBody(error: RelayError) {
    return { code: error.status < 500 ? 4 : 9, description: error.message, type: error.code.replace('channel:', 'upstream_'), result: null };
  }

  private async submit(request: IncomingMessage, response: ServerResponse, kind: string, mode: string | undefined): Promise<void> {
    const caller = await this.support.authenticate(request);
    const body = await this.support.readJsonBody(request);
    if (this.sensitiveWords.active) this.sensitiveWords.checkTexts([body.prompt]);
    const plan = await this.planSubmit(caller, kind, body);
    const model = modelForAction(plan.action);
    const channel = plan.original ? this.originalChannel(plan.original) : this.support.pickChannel(caller, model, MIDJOURNEY_CHANNEL_TYPES);
    const notifyHook = this.applySubmitOptions(body);

    const charge = await this.billing.hold(caller, model, 'Midjourney', { platform: MIDJOURNEY_PLATFORM, action: plan.action });
    const upstreamPath = `${mode ? `/mj-${mode}` : ''}/mj/submit/${kind}`;
    const answer = await this.billing.underHold(charge, channel.id, 'submit', () => this.support.callJson(channel, upstreamPath, { 'mj-api-secret': this.support.key(channel) }, body));
    const result = isRecord(answer.json) ? answer.json : undefined;
    const code = typeof result?.code === 'number' ? result.code : undefined;
    if (answer.status !== 200 || !result || code === undefined) {
      this.billing.giveBack(charge, channel.id, { step: 'submit', detail: `HTTP ${answer.status}` });
      throw new RelayError('channel:bad_response', `The upstream answered status ${answer.status} without a submit result`, 502);
    }
    if (!MJ_ACCEPTED_CODES.has(code)) {
      const description = stringField(result, 'description');
      // Code 3: the channel's account is unusable (new-api disables it when auto-disable is on).
      if (code === MJ_CODE_ACCOUNT_BROKEN && this.options.get('AutomaticDisableChannelEnabled') && channel.autoBan) this.disableChannel(channel, `Midjourney code 3: ${description}`);
      this.billing.giveBack(charge, channel.id, { step: 'refused', detail: description ? `${code}: ${description}` : String(code) });
      return sendJson(response, 200, result);
    }

    // An upload answers with the links of the uploaded images, not a task id: its row is finished at once.
    const taskId = typeof result.result === 'string' ? result.result : '';
    const task = plan.action === 'UPLOAD' ? uploadedTask(result) : { mj_id: taskId, status: 'SUBMITTED', progress: '0%' };
    await this.billing.underHold(charge, channel.id, 'record', () =>
      this.recordTask(channel, plan.action, code, { ...task, prompt: stringField(body, 'prompt'), state: stringField(body, 'state') }, charge, notifyHook),
    );
    this.billing.settle(charge, channel, task.mj_id, `/mj/submit/${kind}`);
    sendJson(response, 200, result);
  }

  /** The action of a submit, and for those acting on an earlier task, that task (the caller's own). */
  private async planSubmit(caller: RelayCaller, kind: string, body: JsonRecord): Promise<SubmitPlan> {
    const fixed = MJ_SUBMIT_ACTIONS[kind];
    if (kind === 'modal') return { action: 'MODAL', original: await this.ownTask(caller, stringField(body, 'taskId')) };
    if (fixed) return { action: fixed };
    let taskId: string;
    let action: MjAction | undefined;
    if (kind === 'simple-change') {
      const parsed = parseSimpleChange(stringField(body, 'content'));
      if (!parsed) throw new RelayError('invalid_request', 'content must look like "<taskId> U1", "<taskId> V2" or "<taskId> R"', 400);
      taskId = parsed.taskId;
      action = parsed.action;
    } else if (kind === 'change') {
      taskId = stringField(body, 'taskId');
      action = isMjAction(body.action) && ['UPSCALE', 'VARIATION', 'REROLL'].includes(body.action) ? body.action : undefined;
      if (!action) throw new RelayError('invalid_request', 'action must be UPSCALE, VARIATION or REROLL', 400);
    } else {
      taskId = stringField(body, 'taskId');
      action = actionOfCustomId(stringField(body, 'customId'));
      if (!action) throw new RelayError('invalid_request', 'customId names no action this gateway knows', 400);
    }
    const original = await this.ownTask(caller, taskId);
    // MjActionCheckSuccessEnabled: buttons act on a finished image only.
    if (this.options.get('MjActionCheckSuccessEnabled') && original.status !== 'SUCCESS') {
      throw new RelayError('invalid_request', `The task ${taskId} has not succeeded yet (status ${original.status || 'NOT_START'})`, 400);
    }
    return { action, original };
  }

  private async ownTask(caller: RelayCaller, taskId: string): Promise<MidjourneyTaskEntity> {
    if (!taskId) throw new RelayError('invalid_request', 'taskId is required', 400);
    const task = await this.tasks.findOneBy({ mj_id: taskId, user_id: caller.user.id });
    if (!task) throw new RelayError('task_not_found', `No task ${taskId}`, 404);
    return task;
  }

  /** Follow-up actions must go to the account that drew the original. */
  private originalChannel(original: MidjourneyTaskEntity): RelayChannel {
    const channel = this.support.channel(original.channel_id);
    if (!channel || channel.status !== CHANNEL_STATUS_ENABLED) {
      throw new RelayError('no_available_channel', 'The channel that drew the original task is no longer available', 503);
    }
    return channel;
  }

  /**
   * The Mj* options on the body about to go upstream. Answers the client's notifyHook when
   * callbacks are on: the gateway calls it itself, so the upstream never learns it.
   */
  private applySubmitOptions(body: JsonRecord): string | null {
    if (this.options.get('MjModeClearEnabled') && typeof body.prompt === 'string') body.prompt = clearModeFlags(body.prompt);
    if (!this.options.get('MjAccountFilterEnabled')) delete body.accountFilter;
    const hook = stringField(body, 'notifyHook');
    delete body.notifyHook;
    return this.options.get('MjNotifyEnabled') && /^https?:\/\//i.test(hook) ? hook : null;
  }

  private async recordTask(channel: RelayChannel, action: MjAction, code: number, task: SubmittedTask, charge: TaskCharge, notifyHook: string | null): Promise<void> {
    const now = Date.now();
    const finished = task.status === 'SUCCESS';
    await this.tasks.insert({
      ...taskOwnerColumns(channel, charge),
      code,
      action,
      mj_id: task.mj_id,
      prompt: task.prompt,
      prompt_en: '',
      description: '',
      state: task.state,
      submit_time: now,
      start_time: finished ? now : 0,
      finish_time: finished ? now : 0,
      image_url: task.image_url ?? '',
      status: task.status,
      progress: task.progress,
      fail_reason: '',
      buttons: '[]',
      properties: '{}',
      notify_hook: notifyHook,
      created_at: nowSeconds(),
    });
  }

  /** The caller's own task, or any task for an admin; others are not found (404). */
  private async fetchTask(request: IncomingMessage, response: ServerResponse, taskId: string): Promise<void> {
    const caller = await this.support.authenticate(request);
    request.resume();
    const task = await this.tasks.findOneBy(isAdmin(caller) ? { mj_id: taskId } : { mj_id: taskId, user_id: caller.user.id });
    if (!task) throw new RelayError('task_not_found', `No task ${taskId}`, 404);
    sendJson(response, 200, this.toDto(task));
  }

  private async listByCondition(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const caller = await this.support.authenticate(request);
    const body = await this.support.readJsonBody(request);
    const ids = Array.isArray(body.ids) ? body.ids.filter((id): id is string => typeof id === 'string').slice(0, 1000) : [];
    if (ids.length === 0) return sendJson(response, 200, []);
    const tasks = await this.tasks.findBy(isAdmin(caller) ? { mj_id: In(ids) } : { mj_id: In(ids), user_id: caller.user.id });
    sendJson(response, 200, tasks.map((task) => this.toDto(task)));
  }

  /** Streams the upstream image of a task; public, as image links are embedded in pages. */
  private async proxyImage(response: ServerResponse, taskId: string): Promise<void> {
    const task = await this.tasks.findOneBy({ mj_id: taskId });
    if (!task?.image_url) throw new RelayError('task_not_found', `No image for task ${taskId}`, 404);
    let bytes: Buffer;
    let contentType: string;
    try {
      const upstream = await this.support.sendOutbound(task.image_url, 'GET', IMAGE_TIMEOUT_MS);
      if (upstream.statusCode !== 200) {
        upstream.body.resume();
        throw new RelayError('channel:bad_response', `The image host answered status ${upstream.statusCode}`, 502);
      }
      contentType = String(upstream.headers['content-type'] ?? 'application/octet-stream');
      bytes = Buffer.from(await upstream.body.arrayBuffer());
    } catch (error) {
      if (error instanceof RelayError) throw error;
      throw new RelayError('channel:connection_error', 'Could not fetch the image', 502);
    }
    response.writeHead(200, { 'content-type': contentType, 'content-length': bytes.length, 'cache-control': 'public, max-age=86400' });
    response.end(bytes);
  }

  private toDto(task: MidjourneyTaskEntity) {
    return toMidjourneyTaskDto(task, drawingImageUrl(task, this.options.get('MjForwardUrlEnabled'), this.options.get('ServerAddress')));
  }

}
