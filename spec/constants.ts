/**
 * Protocol constants and limits. Every bound used by `core/` and `adapters/` lives here (or in the configuration
 * schema when operators may change it). Names carry their unit last.
 */

/** BN254 scalar field modulus: every `Fr` on the wire is strictly below it. */
export const FR_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/** BLS12-381 scalar field modulus: every 32-byte field element of an EIP-4844 blob is strictly below it. */
export const BLS_MODULUS = 52435875175126190479447740508185965837690552500527637822603658699938581184513n;

/** Merkle tree ids, as sent on the wire (docs/protocol.md, Trees). */
export const MerkleTreeId = {
  NULLIFIER_TREE: 0,
  NOTE_HASH_TREE: 1,
  PUBLIC_DATA_TREE: 2,
  L1_TO_L2_MESSAGE_TREE: 3,
  ARCHIVE: 4,
} as const;
export type MerkleTreeId = (typeof MerkleTreeId)[keyof typeof MerkleTreeId];

/** Tree heights (number of levels below the root). */
export const NULLIFIER_TREE_HEIGHT = 42;
export const NOTE_HASH_TREE_HEIGHT = 42;
export const PUBLIC_DATA_TREE_HEIGHT = 40;
export const L1_TO_L2_MSG_TREE_HEIGHT = 36;
export const ARCHIVE_HEIGHT = 30;

/** Chain timing defaults (docs/protocol.md, Time). */
export const L1_SLOT_DURATION_SECONDS = 12;
export const L2_SLOT_DURATION_SECONDS_DEFAULT = 36;
export const EPOCH_DURATION_SLOTS_DEFAULT = 32;
export const PROOF_SUBMISSION_EPOCHS_DEFAULT = 1;

/** EIP-4844 blob geometry. */
export const BLOB_FIELD_ELEMENTS = 4096;
export const BLOB_FIELD_ELEMENT_BYTES = 32;
export const BLOB_SIZE_BYTES = BLOB_FIELD_ELEMENTS * BLOB_FIELD_ELEMENT_BYTES;
/** Payload bytes carried per field element: the first byte of each element is zero so it stays below BLS_MODULUS. */
export const BLOB_PAYLOAD_BYTES_PER_FIELD = 31;
export const BLOB_PAYLOAD_BYTES_MAX = BLOB_FIELD_ELEMENTS * BLOB_PAYLOAD_BYTES_PER_FIELD;
/** Blobs one checkpoint may carry (the L1 per-transaction blob limit after Osaka is 6). */
export const BLOBS_PER_CHECKPOINT_MAX = 6;
/** Version byte of an EIP-4844 versioned hash (KZG). */
export const VERSIONED_HASH_VERSION_KZG = 0x01;

/**
 * Per-tx bounds of a tx's side effects (a TxEffect and a Tx's side effects both obey them). Note hashes and
 * nullifiers are inserted into their trees as one subtree of the per-tx maximum per tx.
 */
export const NOTE_HASHES_PER_TX_MAX = 64;
export const NULLIFIERS_PER_TX_MAX = 64;
export const PUBLIC_DATA_WRITES_PER_TX_MAX = 64;
export const L2_TO_L1_MESSAGES_PER_TX_MAX = 8;
export const PRIVATE_LOGS_PER_TX_MAX = 64;
export const PUBLIC_LOGS_PER_TX_MAX = 64;
/** Fields of one private or public log, its tag excluded. */
export const LOG_FIELDS_MAX = 16;

/** Public calls of one tx, all phases together (setup, app logic, teardown). */
export const PUBLIC_CALLS_PER_TX_MAX = 32;
/** Fields of one public call's calldata, the function selector included. */
export const CALLDATA_FIELDS_MAX = 2_048;
/** Contract class publications and contract instance publications one tx may carry. */
export const CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX = 1;
export const CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX = 4;
/** Packed public bytecode of one contract class. */
export const PUBLIC_BYTECODE_BYTES_MAX = 96 * 1024;
/** Proof bytes a tx may carry. */
export const TX_PROOF_BYTES_MAX = 64 * 1024;

/**
 * The largest tx pool capacity, in txs: the upper bound of the `p2pPendingTxCountMax` setting. Every walk over the
 * whole pool, and the loader's read of stored txs, is bounded by it.
 */
export const TX_POOL_CAPACITY_MAX = 1_000_000;
/** Txs one pool maintenance call may name (mined after blocks, or returning after a prune); callers split beyond. */
export const TX_POOL_MAINTENANCE_TXS_MAX = 65_536;

/**
 * Mana (L2 gas) one checkpoint may use, and the target its congestion rule steers to (docs/protocol.md, Fees:
 * an EIP-1559-style rule over the mana used above the target).
 */
export const CHECKPOINT_MANA_LIMIT = 200_000_000;
export const CHECKPOINT_MANA_TARGET = CHECKPOINT_MANA_LIMIT / 2;
/** DA gas a tx pays per byte of its encoded effect (what its blobs carry). */
export const DA_GAS_PER_BYTE = 16;
/** DA gas one checkpoint may use: DA_GAS_PER_BYTE for every byte of payload its blobs can carry (6 x 4096 x 31). */
export const CHECKPOINT_DA_GAS_LIMIT = DA_GAS_PER_BYTE * 6 * 4096 * 31;
/**
 * The floor of the minimum fees, in base currency (wei) per million units of gas: 0.01 wei per unit of mana and
 * 0.001 wei per unit of DA gas. Fees are paid in the fee asset, so the floor is converted with the rollup contract's
 * base-currency-per-fee-asset rate (`--initialEthPerFeeAsset` at deployment, ETH_PER_FEE_ASSET_PRECISION scaled),
 * rounding up and never below 1: at the default rate of 10^7 the floors are 1,000 and 100 fee-asset units per gas.
 */
export const MIN_COST_WEI_PER_MEGA_MANA = 10_000n;
export const MIN_COST_WEI_PER_MEGA_DA_GAS = 1_000n;
/** Units of gas in the "mega" above. */
export const GAS_PER_MEGA_GAS = 1_000_000n;
/** The rate's scale: a rate of ETH_PER_FEE_ASSET_PRECISION means one wei per unit of fee asset (12 decimals). */
export const ETH_PER_FEE_ASSET_PRECISION = 10n ** 12n;
/** A checkpoint moves the fee per mana by at most 1 / this of itself (EIP-1559's 1/8). */
export const FEE_CHANGE_DENOMINATOR = 8n;
/** Slots svc_getPredictedMinFees looks ahead, after the current fees. */
export const PREDICTED_FEE_SLOTS = 6;

/** Bytes one tx may take (its preimage, hash and proof); a larger one is invalid. */
export const TX_BYTES_MAX = 512 * 1024;
/** Gas one tx may ask for: a whole checkpoint's. */
export const TX_L2_GAS_LIMIT_MAX = CHECKPOINT_MANA_LIMIT;
export const TX_DA_GAS_LIMIT_MAX = CHECKPOINT_DA_GAS_LIMIT;

/** L2 blocks one checkpoint may carry. */
export const BLOCKS_PER_CHECKPOINT_MAX = 16;

/** Default listener ports. */
export const PUBLIC_PORT_DEFAULT = 8080;
export const ADMIN_PORT_DEFAULT = 8880;

/** JSON-RPC envelope limits (docs/protocol.md, Request and list limits). */
export const PUBLIC_BODY_BYTES_MAX = 1024 * 1024;
export const ADMIN_BODY_BYTES_MAX = 10 * 1024 * 1024;
export const BATCH_CALLS_MAX = 100;
export const RPC_REQUEST_TIMEOUT_MS_DEFAULT = 30_000;

/** Sync: how many L1 blocks one archiver step reads at most, and how often it polls. */
export const ARCHIVER_L1_BLOCKS_PER_STEP_MAX = 1_000;
/**
 * Checkpoints one archiver step fetches the blobs of, at most: a step applies nothing until it has fetched them all,
 * so a node that crashes (or is stopped) during its first step after a long absence loses that whole step's work.
 * Bounding the step lets a node that is restarted again and again still move forward, and bounds the blobs it holds.
 */
export const ARCHIVER_CHECKPOINTS_PER_STEP_MAX = 16;
export const ARCHIVER_POLL_INTERVAL_MS_DEFAULT = 1_000;
export const ARCHIVER_RETRY_BACKOFF_MS_MAX = 30_000;
/**
 * How long `svc start` waits, after SIGTERM or SIGINT, for the node to stop (RPC listeners drained, machines stopped,
 * database closed) before it gives up and exits 1. Above the RPC listeners' shutdown grace (5 s) with room for the
 * rest; below the 30 s an orchestrator usually waits before it kills.
 */
export const NODE_SHUTDOWN_TIMEOUT_MS = 20_000;
/** L1 blocks of history the archiver keeps hashes of, to detect reorgs. */
export const ARCHIVER_L1_HASH_HISTORY_BLOCKS_MAX = 128;

/** Sequencer defaults. */
export const SEQUENCER_POLL_INTERVAL_MS_DEFAULT = 500;
/** Seconds at the end of each slot reserved for getting the checkpoint into an L1 block. */
export const SEQ_L1_PUBLISHING_TIME_ALLOWANCE_IN_SLOT_SECONDS_DEFAULT = 24;
/** Target seconds between L2 blocks inside one slot. */
export const SEQ_BLOCK_DURATION_SECONDS_DEFAULT = 6;

/** Compatible contract-language version reported in NodeInfo. */
export const CONTRACT_LANGUAGE_VERSION = '4.0.0';
/** Protocol version reported in NodeInfo. */
export const PROTOCOL_VERSION = 4;
/** Rollup version used by the local network when none is given. */
export const ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT = 1;
/** Chain id of the local network's L1 (anvil's default). */
export const L1_CHAIN_ID_LOCAL_NETWORK = 31337;

// World state (docs/protocol.md, World state; the engine is core/worldState/worldState.ts).
/** Height of the per-tx subtree of the note hash and nullifier trees: 2^6 = 64 leaves. */
export const TX_SUBTREE_HEIGHT = 6;

/**
 * Genesis of the nullifier tree: 64 leaves with nullifiers 0..63, a sorted linked list (leaf i points to i + 1, the
 * last to 0/0). Every later nullifier is above 63 or a duplicate, so it always has a low leaf; and 64 leaves keep the
 * per-tx subtrees aligned on 64.
 */
export const NULLIFIER_TREE_PREFILL_LEAVES = 2 ** TX_SUBTREE_HEIGHT;
/** Genesis of the public data tree: slot 0 with value 0 (every slot has a low leaf), then the test accounts' balances (spec/genesis.ts, GENESIS_TEST_ACCOUNT_COUNT). */
export const PUBLIC_DATA_TREE_PREFILL_LEAVES = 1 + 4;

/** Txs one block may carry. */
export const TXS_PER_BLOCK_MAX = 1_024;
/** L1-to-L2 messages one block may insert. */
export const L1_TO_L2_MESSAGES_PER_BLOCK_MAX = 1_024;

/**
 * Levels per storage page. A tree is stored as pages, each the nodes of `WORLD_STATE_PAGE_HEIGHT` levels of one
 * subtree; a sibling path reads ceil(height / this) pages. See core/merkle/treeGeometry.ts.
 */
export const WORLD_STATE_PAGE_HEIGHT = 3;
/** Latest-state pages kept in memory per tree (a page is under 2 KiB); the least recently written go first. */
export const WORLD_STATE_PAGE_CACHE_PAGES_MAX = 16_384;
/**
 * Bytes of page versions of past blocks kept in memory (core/worldState/historicalPageCache.ts), for witnesses and
 * lookups as of blocks before the latest: a page of a committed block never changes, so a version read once answers
 * every later read of it until an unwind. 64 MiB holds about 50,000 pages.
 */
export const WORLD_STATE_HISTORICAL_PAGE_CACHE_BYTES_MAX = 64 * 1024 * 1024;
/**
 * Keys of the two indexed trees (nullifiers and public data slots) the world state keeps sorted in memory, about 190
 * bytes each (about 50 MiB at this bound). Past it they move to storage, one record a key, and stay there
 * (core/worldState/indexedKeys.ts): lookups then seek storage instead of memory.
 */
export const WORLD_STATE_KEY_INDEX_MEMORY_KEYS_MAX = 262_144;
/** Keys per chunk of the in-memory sorted key index of an indexed tree. */
export const SORTED_INDEX_CHUNK_KEYS_MAX = 512;
/** A read that an unwind or a clear overtook is retried this many times in all before it fails. */
export const WORLD_STATE_READ_ATTEMPTS_MAX = 3;
/** Leaves (or values) one lookup call may ask about. */
export const WORLD_STATE_LOOKUP_VALUES_MAX = 1_024;

// Prover and finality (core/prover, core/archiver/settlement.ts).
/** How often the prover looks for an epoch to prove, and for its proof's inclusion. */
export const PROVER_POLL_INTERVAL_MS_DEFAULT = 1_000;
/**
 * L1 slots a sent proof may wait unmined before the prover sends it again at the same nonce with bumped fees (a fee
 * spike priced it out); each resend waits as long again.
 */
export const PROVER_PROOF_RESEND_AFTER_L1_SLOTS = 3;
/** Local network: epochs of this many slots, so that an epoch is proven and finalized within about two minutes. */
export const LOCAL_NETWORK_EPOCH_DURATION_SLOTS_DEFAULT = 2;
/** Local network: anvil's `--slots-in-an-epoch`; its finalized block trails latest by twice this many blocks. */
export const LOCAL_NETWORK_L1_SLOTS_IN_AN_EPOCH = 1;

/**
 * L1-to-L2 messages one inbox tree holds, and so the leaves each checkpoint inserts into the L1-to-L2 message tree
 * (its messages, then zeros): checkpoint n's subtree starts at leaf (n - 1) x this (spec/messages/inbox.ts). When a
 * tree is full, the inbox starts the next one and later messages wait one checkpoint more. Mirrors
 * contracts/Inbox.sol MESSAGES_PER_CHECKPOINT.
 */
export const L1_TO_L2_MESSAGES_PER_CHECKPOINT = 16;
/** Outbox roots a node keeps without re-reading L1 (those of L2-finalized epochs only). */
export const OUTBOX_ROOT_CACHE_ENTRIES_MAX = 1_024;

/** Wei in one gwei. */
export const WEI_PER_GWEI = 1_000_000_000n;
/**
 * The most the node ever offers per unit of L1 gas (maxFeePerGas), in wei: 1,000 gwei. At this price a proposal of
 * about 300k gas costs about 0.3 ETH; a fee spike above it waits instead of draining the publisher account. Not
 * configurable on purpose: it bounds what the replacement loop can spend (core/l1/l1TxFees.ts).
 */
export const L1_MAX_FEE_PER_GAS_CAP_WEI = 1_000n * WEI_PER_GWEI;
/** The most the node ever offers per unit of L1 blob gas (maxFeePerBlobGas), in wei: 1,000 gwei (6 blobs: about 0.8 ETH). */
export const L1_MAX_FEE_PER_BLOB_GAS_CAP_WEI = 1_000n * WEI_PER_GWEI;
/** Transactions of its own that an L1 publisher remembers as not yet mined (nonce, fees), per account. */
export const L1_TRACKED_TXS_MAX = 16;
