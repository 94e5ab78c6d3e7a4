import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { answerStatsRequests, type ReadyMessage } from './process-stats';

/**
 * The floor: the least a proxy can do. Plain node:http plus a pooled undici client that
 * forwards the body and streams the answer back. The gateway is measured against it.
 */
const upstream = process.env.UPSTREAM_URL ?? '';
const agent = new Agent({ keepAliveTimeout: 30_000, pipelining: 1, connections: 1024 });

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    agent
      .request({ origin: upstream, path: request.url ?? '/', method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer floor' }, body: Buffer.concat(chunks) })
      .then((answer) => {
        response.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'application/json') });
        answer.body.on('data', (chunk: Buffer) => response.write(chunk));
        answer.body.on('end', () => response.end());
        answer.body.on('error', () => response.destroy());
      })
      .catch(() => {
        response.writeHead(502);
        response.end();
      });
  });
});
server.keepAliveTimeout = 65_000;
answerStatsRequests();
server.listen(0, '127.0.0.1', () => {
  const ready: ReadyMessage = { kind: 'ready', port: (server.address() as AddressInfo).port };
  process.send?.(ready);
});
