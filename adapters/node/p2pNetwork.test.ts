import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_PEERS_WARNING_MS } from '../../spec/p2p/constants.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import { PEER_WATCH_INTERVAL_MS, watchPeers } from './p2pNetwork.js';

describe('the peer watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('logs each change of the peer count, and warns every minute while there is no peer', () => {
    const lines: LogLine[] = [];
    let peers = 0;
    const timer = watchPeers(
      { connectedPeerCount: () => peers },
      capturingLogger((line) => lines.push(line)),
    );
    vi.advanceTimersByTime(NO_PEERS_WARNING_MS + PEER_WATCH_INTERVAL_MS);
    const warnings = () => lines.filter((l) => l.level === 'warn');
    expect(lines[0]).toMatchObject({ level: 'info', message: 'p2p peers', fields: { connected: 0 } });
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]!.message).toMatch(/^no p2p peers/);
    peers = 3;
    vi.advanceTimersByTime(3 * NO_PEERS_WARNING_MS);
    expect(warnings()).toHaveLength(1);
    expect(lines.filter((l) => l.message === 'p2p peers').map((l) => l.fields?.connected)).toEqual([0, 3]);
    peers = 0;
    vi.advanceTimersByTime(NO_PEERS_WARNING_MS + PEER_WATCH_INTERVAL_MS);
    expect(warnings()).toHaveLength(2);
    clearInterval(timer);
  });
});
