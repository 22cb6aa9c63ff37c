/**
 * docs/protocol.md, Public data slots: a public storage slot's leaf slot in the public data tree is
 * hashToField(contractAddress || slot).
 */
export { publicDataLeafSlot } from '../../spec/vm/storageSlots.js';
