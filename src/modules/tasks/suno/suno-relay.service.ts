import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { In, Repository } from 'typeorm';
import { nowSeconds } from '../../../database/columns';
import type { RelayChannel } from '../../relay/caches/relay-channel';
import { decodePathSegment, RelayError } from '../../relay/relay-error';
import { GenericTaskEntity } from '../entities/generic-task.entity';
import { TaskCharge, taskOwnerColumns } from '../task-billing.service';
import { isAdmin, TaskRelayService } from '../task-relay.base';
import { isRecord, JsonRecord, sendJson, stringField } from '../task-relay-support.service';
import { SUNO_ACTIONS, SUNO_CHANNEL_TYPES, SUNO_PLATFORM, toSunoTaskDto } from './suno-task';

/**
 * The Suno relay: POST /suno/submit/{music|lyrics} billed at the action's fixed price (held,
 * then settled or given back), GET /suno/fetch/{id} and POST /suno/fetch from our own table,
 * which the polling job keeps current.
 */
@Injectable()
export class SunoRelayService extends TaskRelayService<GenericTaskEntity> {
  constructor(@InjectRepository(GenericTaskEntity) tasks: Repository<GenericTaskEntity>) {
    super(tasks, { option: 'TaskEnabled', offMessage: 'Tasks are disabled by the administrator' });
  }

  protected async route(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const submit = /^\/suno\/submit\/([a-zA-Z]+)$/.exec(path);
    const fetchOne = /^\/suno\/fetch\/([^/]+)$/.exec(path);
    if (submit && request.method === 'POST') return this.submit(request, response, submit[1].toLowerCase());
    if (fetchOne && request.method === 'GET') return this.fetchTask(request, response, decodePathSegment(fetchOne[1]));
    if (path === '/suno/fetch' && request.method === 'POST') return this.fetchMany(request, response);
    throw new RelayError('not_found', `Unknown endpoint ${request.method} ${path}`, 404);
  }

  /** new-api's task error shape: {code, message, data: null}. */
  protected errorBody(error: RelayError) {
    return { code: error.code.replace('channel:', 'upstream_'), message: error.message, data: null };
  }

  private async submit(request: IncomingMessage, response: ServerResponse, actionPath: string): Promise<void> {
    const action = SUNO_ACTIONS[actionPath];
    if (!action) throw new RelayError('invalid_request', 'The action must be music or lyrics', 400);
    const caller = await this.support.authenticate(request);
    const body = await this.support.readJsonBody(request);
    if (this.sensitiveWords.active) this.sensitiveWords.checkTexts([body.prompt, body.gpt_description_prompt, body.title, body.tags]);
    const channel = this.support.pickChannel(caller, action.model, SUNO_CHANNEL_TYPES);
    const charge = await this.billing.hold(caller, action.model, 'Suno', { platform: SUNO_PLATFORM, action: action.action });

    const answer = await this.billing.underHold(charge, channel.id, 'submit', () =>
      this.support.callJson(channel, `/suno/submit/${actionPath}`, { authorization: `Bearer ${this.support.key(channel)}` }, body),
    );
    const result = isRecord(answer.json) ? answer.json : undefined;
    const taskId = result && typeof result.data === 'string' ? result.data : '';
    if (answer.status !== 200 || result?.code !== 'success' || !taskId) {
      const message = (result && stringField(result, 'message')) || `status ${answer.status}`;
      this.disableIfBroken(channel, answer.status, message);
      this.billing.giveBack(charge, channel.id, { step: 'refused', detail: message });
      const status = answer.status >= 400 && answer.status < 500 ? 400 : 502;
      throw new RelayError(status === 400 ? 'upstream_request_error' : 'channel:bad_response', `The upstream refused the task: ${message}`, status);
    }
    await this.billing.underHold(charge, channel.id, 'record', () => this.recordTask(channel, action.action, taskId, body, charge));
    this.billing.settle(charge, channel, taskId, `/suno/submit/${actionPath}`);
    sendJson(response, 200, { code: 'success', message: '', data: taskId });
  }

  private async recordTask(channel: RelayChannel, action: string, taskId: string, body: JsonRecord, charge: TaskCharge): Promise<void> {
    const now = nowSeconds();
    await this.tasks.insert({
      ...taskOwnerColumns(channel, charge),
      created_at: now,
      updated_at: now,
      task_id: taskId,
      platform: SUNO_PLATFORM,
      action,
      status: 'SUBMITTED',
      fail_reason: '',
      submit_time: now,
      start_time: 0,
      finish_time: 0,
      progress: '0%',
      properties: JSON.stringify(body),
      data: null,
    });
  }

  private disableIfBroken(channel: RelayChannel, status: number, message: string): void {
    if (!this.monitor.shouldDisable(channel, status, message)) return;
    this.disableChannel(channel, `status ${status}: ${message.slice(0, 300)}`);
  }

  /** The caller's own task, or any task for an admin; others are not found (404). */
  private async fetchTask(request: IncomingMessage, response: ServerResponse, taskId: string): Promise<void> {
    const caller = await this.support.authenticate(request);
    request.resume();
    const where = { task_id: taskId, platform: SUNO_PLATFORM };
    const task = await this.tasks.findOneBy(isAdmin(caller) ? where : { ...where, user_id: caller.user.id });
    if (!task) throw new RelayError('task_not_found', `No task ${taskId}`, 404);
    sendJson(response, 200, { code: 'success', message: '', data: toSunoTaskDto(task) });
  }

  private async fetchMany(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const caller = await this.support.authenticate(request);
    const body = await this.support.readJsonBody(request);
    const ids = Array.isArray(body.ids) ? body.ids.filter((id): id is string => typeof id === 'string').slice(0, 1000) : [];
    const where = { task_id: In(ids), platform: SUNO_PLATFORM };
    const tasks = ids.length === 0 ? [] : await this.tasks.findBy(isAdmin(caller) ? where : { ...where, user_id: caller.user.id });
    sendJson(response, 200, { code: 'success', message: '', data: tasks.map(toSunoTaskDto) });
  }
}
