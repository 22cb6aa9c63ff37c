import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { createSimStorage } from '../../sim/simStorage.js';
import { reopenableClassicLevelStore, reopenableInMemoryStore } from '../helpers/reopenableStorage.js';
import { describeStoragePort } from './storagePort.suite.js';

describeStoragePort('memory-level', () => reopenableInMemoryStore(createMemoryStorage()));
describeStoragePort('classic-level', () => reopenableClassicLevelStore('storage-contract-'));
// The simulated store refuses non-ASCII keys (sim/simLevel.ts), so its run of the contract writes ASCII keys only.
describeStoragePort('simulated', () => reopenableInMemoryStore(createSimStorage()), 'ascii');
