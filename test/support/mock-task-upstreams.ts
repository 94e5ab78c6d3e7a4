import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One job on a mock task server: it moves one step each time it is polled. */
interface MockJob {
  id: string;
  body: Record<string, unknown>;
  polls: number;
  /** Fails on its second poll (prompt contains "fail-later"). */
  failLater: boolean;
}

/** A tiny JSON HTTP server on loopback, shared by the two mocks. */
abstract class MockJsonServer {
  private server?: Server;
  baseUrl = '';
  /** Every request received: method, path, headers and parsed body. */
  requests: { method: string; path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
  /** When set, polls never answer (an upstream that times out). */
  hangPolls = false;
  protected jobs = new Map<string, MockJob>();
  private nextId = 1;

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.receive(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  reset(): void {
    this.requests = [];
    this.hangPolls = false;
  }

  protected newJob(body: Record<string, unknown>): MockJob {
    const id = `${Date.now()}${this.nextId++}`;
    const job = { id, body, polls: 0, failLater: JSON.stringify(body).includes('fail-later') };
    this.jobs.set(id, job);
    return job;
  }

  protected abstract route(method: string, path: string, body: Record<string, unknown>, request: IncomingMessage): { status: number; body: unknown } | 'hang' | undefined;

  private async receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const path = (request.url ?? '/').split('?')[0];
    this.requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body });
    if (path.startsWith('/images/')) {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(Buffer.from('89504e470d0a1a0a', 'hex'));
      return;
    }
    const answer = this.route(request.method ?? 'GET', path, body, request);
    if (answer === 'hang') return;
    if (!answer) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"not found"}');
      return;
    }
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body));
  }
}

export const MJ_SECRET = 'mj-upstream-secret';

/**
 * Midjourney-Proxy's wire format: submit answers {code, description, result}, tasks progress
 * 0% → 50% → 100% (SUCCESS with an image) over polls of /mj/task/list-by-condition. A prompt
 * containing "refuse" is refused (code 4), "code3" answers code 3 (a broken account), and
 * "fail-later" fails on its second poll.
 */
export class MockMidjourneyProxy extends MockJsonServer {
  protected route(method: string, path: string, body: Record<string, unknown>, request: IncomingMessage) {
    if (request.headers['mj-api-secret'] !== MJ_SECRET) return { status: 401, body: { code: 4, description: 'bad secret' } };
    const submit = /^(?:\/mj-(?:fast|relax|turbo))?\/mj\/submit\/([a-z-]+)$/.exec(path);
    if (submit && method === 'POST') {
      const prompt = JSON.stringify(body);
      if (prompt.includes('refuse')) return { status: 200, body: { code: 4, description: 'banned prompt', result: null } };
      if (prompt.includes('code3')) return { status: 200, body: { code: 3, description: 'account is disabled', result: null } };
      if (submit[1] === 'upload-discord-images') return { status: 200, body: { code: 1, description: 'Success', result: ['https://cdn.invalid/a.png'] } };
      return { status: 200, body: { code: 1, description: 'Submit success', result: this.newJob(body).id, properties: {} } };
    }
    if (path === '/mj/task/list-by-condition' && method === 'POST') {
      if (this.hangPolls) return 'hang';
      const ids = (body.ids as string[]) ?? [];
      return { status: 200, body: ids.map((id) => this.jobs.get(id)).filter((job): job is MockJob => !!job).map((job) => this.poll(job)) };
    }
    return undefined;
  }

  private poll(job: MockJob): Record<string, unknown> {
    job.polls++;
    const base = { id: job.id, action: 'IMAGINE', prompt: job.body.prompt ?? '', promptEn: 'an english prompt', description: '/imagine', submitTime: 1, startTime: 2 };
    if (job.failLater && job.polls >= 2) return { ...base, status: 'FAILURE', progress: '', failReason: 'job banned by moderator', finishTime: 3 };
    if (job.polls === 1) return { ...base, status: 'IN_PROGRESS', progress: '50%', imageUrl: '' };
    return { ...base, status: 'SUCCESS', progress: '100%', imageUrl: `${this.baseUrl}/images/${job.id}.png`, finishTime: 3, buttons: [{ customId: `MJ::JOB::upsample::1::${job.id}`, label: 'U1' }] };
  }
}

export const SUNO_KEY = 'suno-upstream-key';

/**
 * A Suno API server: submit answers {code: "success", data: taskId}, /suno/fetch answers
 * {code: "success", data: [TaskDto]}, progressing SUBMITTED → IN_PROGRESS 50% → SUCCESS.
 * "refuse" in the body is refused; "fail-later" fails on the second poll.
 */
export class MockSunoApi extends MockJsonServer {
  protected route(method: string, path: string, body: Record<string, unknown>, request: IncomingMessage) {
    if (request.headers.authorization !== `Bearer ${SUNO_KEY}`) return { status: 401, body: { code: 'unauthorized', message: 'invalid key' } };
    const submit = /^\/suno\/submit\/(music|lyrics)$/.exec(path);
    if (submit && method === 'POST') {
      if (JSON.stringify(body).includes('refuse')) return { status: 400, body: { code: 'error', message: 'prompt refused', data: null } };
      return { status: 200, body: { code: 'success', message: '', data: this.newJob({ ...body, action: submit[1].toUpperCase() }).id } };
    }
    if (path === '/suno/fetch' && method === 'POST') {
      if (this.hangPolls) return 'hang';
      const ids = (body.ids as string[]) ?? [];
      return { status: 200, body: { code: 'success', message: '', data: ids.map((id) => this.jobs.get(id)).filter((job): job is MockJob => !!job).map((job) => this.poll(job)) } };
    }
    return undefined;
  }

  private poll(job: MockJob): Record<string, unknown> {
    job.polls++;
    const base = { task_id: job.id, action: job.body.action, submit_time: 1, start_time: 2 };
    if (job.failLater && job.polls >= 2) return { ...base, status: 'FAILURE', progress: '100%', fail_reason: 'generation failed', finish_time: 3 };
    if (job.polls === 1) return { ...base, status: 'IN_PROGRESS', progress: '50%' };
    return { ...base, status: 'SUCCESS', progress: '100%', finish_time: 3, data: [{ id: `clip-${job.id}`, audio_url: `${this.baseUrl}/audio/${job.id}.mp3`, title: job.body.title ?? '' }] };
  }
}
