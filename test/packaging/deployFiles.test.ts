/**
 * The Dockerfile and the compose example agree with the node's defaults and with each other: no container engine
 * runs here (test/e2e/packagedNode.test.ts runs what the image runs), so these are the parts a drift would break
 * silently for an operator: exposed ports, the admin listener on loopback, the data volume, the metrics scrape.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { P2P_PORT_DEFAULT } from '../../spec/config/schema.js';
import { ADMIN_PORT_DEFAULT, PUBLIC_PORT_DEFAULT } from '../../spec/constants.js';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFile(path.join(root, file), 'utf8');

/** The runtime stage: the Dockerfile's text from its last FROM on. */
async function runtimeStage(): Promise<string> {
  const dockerfile = await read('Dockerfile');
  return dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
}

/** `KEY=value` pairs of the runtime stage's ENV instruction. */
function envOf(stage: string): Record<string, string> {
  const instruction = /^ENV ((?:.*\\\n)*.*)$/m.exec(stage)?.[1] ?? '';
  return Object.fromEntries([...instruction.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1], match[2]]));
}

describe('the Dockerfile', () => {
  test('runs a slim image as a non-root user, with its data in a volume', async () => {
    const stage = await runtimeStage();
    expect(stage).toMatch(/^\nFROM node:20-[\w-]*slim/);
    expect(stage).toMatch(/^USER node$/m);
    expect(stage).toMatch(/^VOLUME \/data$/m);
    expect(envOf(stage)['DATA_DIRECTORY']).toBe('/data');
  });

  test('exposes the public and p2p ports at their defaults, and keeps the admin port on loopback', async () => {
    const stage = await runtimeStage();
    const env = envOf(stage);
    expect(env).toMatchObject({
      SVC_PORT: String(PUBLIC_PORT_DEFAULT),
      SVC_ADMIN_PORT: String(ADMIN_PORT_DEFAULT),
      SVC_ADMIN_HOST: '127.0.0.1',
      P2P_PORT: String(P2P_PORT_DEFAULT),
    });
    const exposed = /^EXPOSE (.*)$/m.exec(stage)?.[1]?.split(' ') ?? [];
    expect(exposed.sort()).toEqual(
      [String(PUBLIC_PORT_DEFAULT), `${P2P_PORT_DEFAULT}/tcp`, `${P2P_PORT_DEFAULT}/udp`].sort(),
    );
  });
});

describe('the compose example', () => {
  test('Prometheus scrapes the metrics port the node is given, on the compose network', async () => {
    const compose = await read('deploy/docker-compose.yml');
    const metricsPort = /METRICS_PORT: '(\d+)'/.exec(compose)?.[1];
    expect(metricsPort).toBeDefined();
    expect(compose).toMatch(/METRICS_HOST: 0\.0\.0\.0/);
    const prometheus = await read('deploy/prometheus.yml');
    expect(prometheus).toContain(`targets: ['node:${metricsPort}']`);
    expect(compose).toContain('./prometheus.yml:/etc/prometheus/prometheus.yml');
  });

  test('publishes the public and p2p ports, and no admin port', async () => {
    const compose = await read('deploy/docker-compose.yml');
    const published = [...compose.matchAll(/^ {6}- '([\d.:]+(?:\/\w+)?)'$/gm)].map((match) => match[1]);
    expect(published).toContain(`${PUBLIC_PORT_DEFAULT}:${PUBLIC_PORT_DEFAULT}`);
    expect(published).toContain(`${P2P_PORT_DEFAULT}:${P2P_PORT_DEFAULT}/udp`);
    expect(published.some((port) => port?.includes(String(ADMIN_PORT_DEFAULT)))).toBe(false);
  });
});
