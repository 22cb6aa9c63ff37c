import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { reopenableClassicLevelStore, reopenableInMemoryStore } from '../helpers/reopenableStorage.js';
import { describeStoragePort } from './storagePort.suite.js';

// The simulated store (sim/simStorage.ts) is left out: it refuses non-ASCII keys, which this suite writes, and has
// its own tests of the ASCII order it keeps.
describeStoragePort('memory-level', () => reopenableInMemoryStore(createMemoryStorage()));
describeStoragePort('classic-level', () => reopenableClassicLevelStore('storage-contract-'));
