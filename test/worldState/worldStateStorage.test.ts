import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { createSimStorage } from '../../sim/simStorage.js';
import { reopenableClassicLevelStore, reopenableInMemoryStore } from '../helpers/reopenableStorage.js';
import { describeWorldStateStorage } from './worldStateStorage.suite.js';

describeWorldStateStorage('memory-level', () => reopenableInMemoryStore(createMemoryStorage()));

describeWorldStateStorage('classic-level', () => reopenableClassicLevelStore('world-state-'));

describeWorldStateStorage('simulated', () => reopenableInMemoryStore(createSimStorage()));
