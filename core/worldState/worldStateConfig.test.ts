import { describe, expect, it } from 'vitest';
import { resolveWorldStateConfig, type WorldStateTreeHeights } from './worldStateConfig.js';

const genesisBlockHash = `0x${'AB'.repeat(32)}` as const;
const treeHeights: WorldStateTreeHeights = { nullifier: 10, noteHash: 8, publicData: 10, l1ToL2Message: 6, archive: 6 };

describe('resolveWorldStateConfig', () => {
  it('accepts a tx subtree from a single leaf up to the height of the smaller of the note hash and nullifier trees', () => {
    for (const txSubtreeHeight of [0, 3, 8]) {
      const config = resolveWorldStateConfig({ genesisBlockHash, treeHeights, txSubtreeHeight, pageHeight: 2 });
      expect(config).toMatchObject({ txSubtreeHeight, treeHeights, genesisBlockHash: genesisBlockHash.toLowerCase() });
      expect(config.geometries.map((geometry) => geometry.height)).toEqual([10, 8, 10, 6, 6]);
    }
  });

  it('refuses a tx subtree of negative height or taller than either tree', () => {
    for (const txSubtreeHeight of [-1, 9, 10]) {
      expect(() => resolveWorldStateConfig({ genesisBlockHash, treeHeights, txSubtreeHeight, pageHeight: 2 })).toThrow(
        'assertion failed: the tx subtree fits the trees',
      );
    }
  });
});
