/**
 * Validator constants: BLS sizes, the committee draw, the attestation pool's bounds, slashing rounds, validator
 * statistics and the keystore. They sit here beside the validator encodings (spec/validators/) rather than in
 * spec/constants.ts so that the validator subsystem is one reviewable unit; names carry their unit last.
 */
import {
  BLOB_PAYLOAD_BYTES_MAX,
  BLOBS_PER_CHECKPOINT_MAX,
  BLOCKS_PER_CHECKPOINT_MAX,
  TXS_PER_BLOCK_MAX,
} from '../constants.js';

// BLS12-381, min-pk: public keys in G1, signatures in G2 (the layout @chainsafe/blst hard-wires, as Ethereum does).
/** A compressed public key (G1 point). */
export const BLS_PUBLIC_KEY_BYTES = 48;
/** A compressed signature (G2 point); spec/wire/scalars.ts `blsSignature` has this size. */
export const BLS_SIGNATURE_BYTES = 96;
/** A secret key: a scalar below the BLS12-381 group order, big-endian. */
export const BLS_SECRET_KEY_BYTES = 32;

// Committees (core/validators/committee.ts).
/** Members drawn for an epoch's committee; the whole validator set when it is smaller. */
export const COMMITTEE_SIZE = 48;
/**
 * Validators the L1 set may hold for a draw (the rollup contract caps its set at this). The draw itself costs
 * O(COMMITTEE_SIZE) whatever the set's size, but the node holds and scans the whole set once per epoch.
 */
export const VALIDATOR_SET_SIZE_MAX = 1_000_000;
/**
 * How many epochs back the committee seed's chain value is read: epoch e's seed uses the archive root L1 held at
 * the start of epoch e - COMMITTEE_SEED_LAG_EPOCHS (core/validators/committee.ts explains the choice). It must exceed
 * `proofSubmissionEpochs` (default 1) so that the value can no longer be pruned once epoch e - 1 starts.
 */
export const COMMITTEE_SEED_LAG_EPOCHS = 2;
/**
 * Draws one uniform index may take before the sampler gives up. Each draw is rejected with probability below
 * bound / 2^248, so reaching this is impossible in practice; it is an assertion, never an expected failure.
 */
export const UNIFORM_DRAW_ATTEMPTS_MAX = 64;
/** Epochs whose committee a node keeps drawn (core/validators/validatorDuties.ts): a few back for late gossip and sync. */
export const COMMITTEE_CACHE_EPOCHS_MAX = 8;
/** Checkpoints one node remembers refusing for a missing quorum (core/archiver/syncStep.ts); older ones are forgotten. */
export const REFUSED_CHECKPOINTS_KEPT_MAX = 64;
/**
 * Share of the sequencer's L1 publishing allowance (SEQ_..._TIME_ALLOWANCE_IN_SLOT) a proposer spends waiting for its
 * committee's attestations, in percent; the rest is left for the L1 transaction to land within the slot.
 */
export const ATTESTATION_WAIT_SHARE_OF_ALLOWANCE_PERCENT = 50;
/** How often a proposer waiting for attestations looks at its pool again, in ms (new attestations also wake it). */
export const ATTESTATION_WAIT_POLL_MS = 250;

// Attestation pool (core/validators/attestationPool.ts).
/** Slots the pool keeps: the current slot and the ones before it; older entries are dropped. */
export const ATTESTATION_POOL_SLOTS_KEPT = 64;
/** How far past the pool's current slot an entry may be (gossip for the next slot arrives early). */
export const ATTESTATION_POOL_FUTURE_SLOTS_MAX = 1;
/**
 * Distinct payloads kept per signer and per duty in one slot: the first, and the first conflicting one as evidence.
 * Later conflicting payloads add nothing and are dropped, which bounds every per-slot list below.
 */
export const ATTESTATION_POOL_PAYLOADS_PER_SIGNER_MAX = 2;
/** Checkpoint proposals one slot may hold (one proposer, at most two payloads). */
export const CHECKPOINT_PROPOSALS_PER_SLOT_MAX = ATTESTATION_POOL_PAYLOADS_PER_SIGNER_MAX;
/** Block proposals one slot may hold (one proposer, every block position, at most two payloads each). */
export const BLOCK_PROPOSALS_PER_SLOT_MAX = ATTESTATION_POOL_PAYLOADS_PER_SIGNER_MAX * BLOCKS_PER_CHECKPOINT_MAX;
/** Checkpoint attestations one slot may hold (each committee member, at most two payloads). */
export const CHECKPOINT_ATTESTATIONS_PER_SLOT_MAX = ATTESTATION_POOL_PAYLOADS_PER_SIGNER_MAX * COMMITTEE_SIZE;
/** Tx hashes one block proposal may list. */
export const BLOCK_PROPOSAL_TX_HASHES_MAX = TXS_PER_BLOCK_MAX;
/**
 * Bytes of encoded tx effects one gossiped block body may carry: the payload capacity of a checkpoint's blobs
 * (BLOBS_PER_CHECKPOINT_MAX x BLOB_PAYLOAD_BYTES_MAX, 761,856 bytes). A block's effects travel in its checkpoint's
 * blobs, so a real body is always smaller (the blobs also carry framing and block headers); a larger one is refused
 * before it is decoded.
 */
export const BLOCK_PROPOSAL_BODY_BYTES_MAX = BLOBS_PER_CHECKPOINT_MAX * BLOB_PAYLOAD_BYTES_MAX;

// Slashing (offenses recorded by the attestation pool).
/** Slots in one slashing round: round r covers slots [r * SLASH_ROUND_SLOTS, (r + 1) * SLASH_ROUND_SLOTS). */
export const SLASH_ROUND_SLOTS = 128;
/** Offenses the node keeps (the oldest go first); svcAdmin_getSlashOffenses('all') answers at most this many. */
export const SLASH_OFFENSES_KEPT_MAX = 4_096;
/** Penalty of a duplicate proposal and of a duplicate attestation, in the staking asset's smallest unit. */
export const DUPLICATE_PROPOSAL_PENALTY = 0n;
export const DUPLICATE_ATTESTATION_PENALTY = 0n;

// Validator statistics (core/validators/stats.ts).
/** Slots of duties the statistics keep and count over (svc_getValidatorsStats `slotWindow`): about 10 h at 36 s. */
export const VALIDATOR_STATS_SLOT_WINDOW = 1_024;
/**
 * Slots the statistics wait, after a slot ends, for the node's L1 sync to pass it before recording it anyway. A
 * checkpoint lands on L1 within its own slot (the rollup contract refuses any other), so once the archiver has synced
 * L1 past the slot the node knows whether the checkpoint landed and which attestations it carries; the wait only
 * matters when the sync lags (a paused archiver, an L1 outage). It stays well inside the attestation pool's window,
 * which holds the slot's gossip until it is recorded.
 */
export const VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX = 16;

/** Validators the local network registers at deployment and runs from its own keystore (a committee of its own keys). */
export const LOCAL_NETWORK_VALIDATOR_COUNT = 4;

// Keystore (core/validators/keystore.ts).
/** The keystore file format this node reads. */
export const KEYSTORE_SCHEMA_VERSION = 1;
/** Validators one keystore may list. */
export const KEYSTORE_VALIDATORS_MAX = 1_024;
/** Bytes of keystore file the adapter reads at most; a larger file is refused before parsing. */
export const KEYSTORE_FILE_BYTES_MAX = 1024 * 1024;

// High-availability signing (core/validators/signingClaims.ts, adapters/signing/).
/**
 * Slots of signing claims the shared database keeps behind the newest slot a node claimed; older claims are pruned.
 * A node signs only for the current slot (a proposal for another slot is refused as `notCurrentSlot`), so a claim
 * this old can never be contested again; the margin (about 10 h at 36 s) covers clock skew between redundant nodes
 * by far and leaves the operator a recent record of which node signed what.
 */
export const HA_SIGNING_CLAIMS_KEPT_SLOTS = 1_024;
/** A node prunes the old claims at most once per this many slots (one DELETE, not one per claim). */
export const HA_SIGNING_PRUNE_INTERVAL_SLOTS = 32;
/** How long opening a connection to the HA signing database may take before the claim fails closed, in ms. */
export const HA_DATABASE_CONNECT_TIMEOUT_MS = 2_000;
/** How long one query of the HA signing database may take before the claim fails closed, in ms. */
export const HA_DATABASE_QUERY_TIMEOUT_MS = 2_000;
/** Connections one node holds open to the HA signing database. */
export const HA_DATABASE_CONNECTIONS_MAX = 4;
