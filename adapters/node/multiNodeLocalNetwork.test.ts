import { describe, expect, it } from 'vitest';
import { LOCAL_NETWORK_NODES_MAX } from '../../spec/config/schema.js';
import { resolveConfig } from '../config/resolveConfig.js';
import { childMetricsSettings, planLocalNodes } from './multiNodeLocalNetwork.js';

const quorumOf = (committee: number) => Math.floor((2 * committee) / 3) + 1;

describe('the plan of a multi-process local network', () => {
  it.each([2, 3, 4, LOCAL_NETWORK_NODES_MAX])('spreads %i nodes so that none alone holds a quorum', (count) => {
    const plans = planLocalNodes(resolveConfig({ env: { LOCAL_NETWORK_NODES: String(count) } }), count, '/tmp/ln');
    const validators = plans.flatMap((plan) => plan.validators);
    expect(new Set(validators.map((v) => v.address)).size).toBe(validators.length);
    for (const plan of plans) {
      expect(plan.validators.length).toBeGreaterThan(0);
      expect(plan.validators.length).toBeLessThan(quorumOf(validators.length));
    }
  });

  it('gives each node its own ports, data directory, peer id and L1 publisher', () => {
    const config = resolveConfig({ env: { SVC_PORT: '9000', P2P_PORT: '41000' } });
    const plans = planLocalNodes(config, 4, '/tmp/ln');
    for (const field of [
      'publicPort',
      'adminPort',
      'p2pPort',
      'dataDirectory',
      'peerId',
      'publisherPrivateKey',
    ] as const)
      expect(new Set(plans.map((plan) => plan[field])).size).toBe(4);
    expect(plans.map((plan) => plan.publicPort)).toEqual([9000, 9001, 9002, 9003]);
    expect(plans[2]!.multiaddr).toBe(`/ip4/127.0.0.1/tcp/41002/p2p/${plans[2]!.peerId}`);
    expect(planLocalNodes(config, 4, '/tmp/ln')[3]!.peerId).toBe(plans[3]!.peerId);
  });

  it('gives each node its own metrics port when asked for metrics, and the same collector', () => {
    const { values } = resolveConfig({
      env: { METRICS_PORT: '9464', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://127.0.0.1:4318/v1/metrics' },
    });
    const children = [0, 1, 2].map((index) => childMetricsSettings(values, index));
    expect(children.map((child) => child.metricsPort)).toEqual(['9464', '9465', '9466']);
    expect(new Set(children.map((child) => child.otelExporterOtlpMetricsEndpoint)).size).toBe(1);
    const anyFree = resolveConfig({ env: { METRICS_PORT: '0' } }).values;
    expect([0, 1].map((index) => childMetricsSettings(anyFree, index).metricsPort)).toEqual(['0', '0']);
    expect(childMetricsSettings(resolveConfig({ env: {} }).values, 1)).toEqual({});
  });
});
