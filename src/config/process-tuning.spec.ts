import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GATEWAY_ENV, GATEWAY_NODE_FLAGS } from './process-tuning';

const ROOT = path.join(__dirname, '..', '..');

/** The node command line of a start script or CMD, as words. */
function nodeArguments(command: string): string[] {
  return command.split(/\s+/).filter((word) => word !== 'node');
}

describe('the gateway starts as process-tuning.ts says, wherever it is started', () => {
  it('in package.json start scripts', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const name of ['start', 'start:prod']) expect(nodeArguments(scripts[name])).toEqual([...GATEWAY_NODE_FLAGS, 'dist/src/main.js']);
  });

  it('in the Dockerfile', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]';
    expect(JSON.parse(cmd)).toEqual(['node', ...GATEWAY_NODE_FLAGS, 'dist/src/main.js']);
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    for (const [name, value] of Object.entries(GATEWAY_ENV)) expect(runtimeStage).toMatch(new RegExp(`^ENV .*\\b${name}=${value}\\b`, 'm'));
  });
});

describe('the Kubernetes manifests', () => {
  it('cap the heap well under each container memory limit, with the other flags and the entry point as the image starts them', () => {
    const manifest = readFileSync(path.join(ROOT, 'deploy', 'k8s', 'deployment.yaml'), 'utf8');
    const commands = [...manifest.matchAll(/^\s+command: (\[.*\])$/gm)].map((match) => JSON.parse(match[1]) as string[]);
    const limits = [...manifest.matchAll(/limits: \{ memory: (\d+)Gi \}/g)].map((match) => Number(match[1]) * 1024);
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.length).toBe(limits.length);
    for (const [index, command] of commands.entries()) {
      const heapCap = Number(/^--max-old-space-size=(\d+)$/.exec(command.find((word) => word.startsWith('--max-old-space-size=')) ?? '')?.[1]);
      // Room beside the old generation: the young generation, code, the node binary and the SQLite/worker threads (~150 MB at idle).
      expect(heapCap).toBeLessThanOrEqual(limits[index] * 0.75);
      expect(command.filter((word) => !word.startsWith('--max-old-space-size='))).toEqual(['node', ...GATEWAY_NODE_FLAGS.filter((flag) => !flag.startsWith('--max-old-space-size=')), 'dist/src/main.js']);
    }
  });
});
