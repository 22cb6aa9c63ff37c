// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Rollup
/// @notice Records the rollup's checkpoints on L1: one archive root per checkpoint, proposed in the L2 slot it belongs
/// to, with the checkpoint's data carried in EIP-4844 blobs of the proposing transaction.
/// @dev ACCESS CONTROL: none yet. Any sender may propose the next checkpoint; the proposer committee and its
/// attestations come later. Until then the contract only enforces ordering, timing and blob binding.
contract Rollup {
    /// @notice At most this many blobs per checkpoint (the L1 per-transaction blob limit after Osaka).
    uint256 public constant BLOBS_PER_CHECKPOINT_MAX = 6;
    /// @notice Length of the encoded checkpoint header (spec/codec/checkpointHeader.ts, CHECKPOINT_HEADER_BYTES).
    uint256 public constant CHECKPOINT_HEADER_BYTES = 174;
    bytes32 internal constant BLOBS_HASH_MASK = 0x00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;

    uint256 private immutable GENESIS_TIME;
    uint256 private immutable SLOT_DURATION;
    uint256 private immutable EPOCH_DURATION;
    uint256 private immutable PROOF_SUBMISSION_EPOCHS;
    uint256 private immutable ROLLUP_VERSION;
    uint256 private immutable L1_START_BLOCK;

    /// @dev Number of checkpoints proposed so far (checkpoint numbers start at 1; 0 is genesis).
    uint256 private checkpointCount;
    /// @dev Archive root after each checkpoint; archives[0] is the genesis archive.
    mapping(uint256 checkpointNumber => bytes32 archive) private archives;
    /// @dev L2 slot each checkpoint was proposed in (unset for genesis).
    mapping(uint256 checkpointNumber => uint256 slot) private slots;

    event CheckpointProposed(
        uint256 indexed checkpointNumber,
        bytes32 indexed archive,
        uint256 slotNumber,
        bytes header,
        bytes32[] blobHashes
    );

    error ZeroSlotDuration();
    error ZeroEpochDuration();
    error BeforeGenesis(uint256 timestamp, uint256 genesisTime);
    error WrongCheckpointNumber(uint256 expected, uint256 given);
    error WrongLastArchive(bytes32 expected, bytes32 given);
    error WrongSlot(uint256 currentSlot, uint256 given);
    error SlotNotAfterPreviousCheckpoint(uint256 previousSlot, uint256 given);
    error WrongBlobCount(uint256 count, uint256 max);
    error BlobHashMismatch(uint256 index, bytes32 expected, bytes32 actual);
    error ExtraBlob(uint256 index, bytes32 actual);
    error MalformedHeader(uint256 length, uint256 expected);
    error HeaderMismatch(string field);

    constructor(
        bytes32 genesisArchive,
        uint256 genesisTime,
        uint256 slotDuration,
        uint256 epochDuration,
        uint256 proofSubmissionEpochs,
        uint256 rollupVersion
    ) {
        if (slotDuration == 0) revert ZeroSlotDuration();
        if (epochDuration == 0) revert ZeroEpochDuration();
        GENESIS_TIME = genesisTime == 0 ? block.timestamp : genesisTime;
        SLOT_DURATION = slotDuration;
        EPOCH_DURATION = epochDuration;
        PROOF_SUBMISSION_EPOCHS = proofSubmissionEpochs;
        ROLLUP_VERSION = rollupVersion;
        L1_START_BLOCK = block.number;
        archives[0] = genesisArchive;
    }

    /// @notice Records checkpoint `checkpointNumber`. The transaction must carry exactly `blobHashes.length` blobs whose
    /// versioned hashes are `blobHashes`, in order.
    function propose(
        uint256 checkpointNumber,
        bytes32 archive,
        bytes32 lastArchive,
        uint256 slotNumber,
        bytes calldata header,
        bytes32[] calldata blobHashes
    ) external {
        _checkHeader(header, lastArchive, slotNumber, blobHashes);
        uint256 count = checkpointCount;
        if (checkpointNumber != count + 1) revert WrongCheckpointNumber(count + 1, checkpointNumber);
        if (lastArchive != archives[count]) revert WrongLastArchive(archives[count], lastArchive);

        uint256 currentSlot = _currentSlot();
        if (slotNumber != currentSlot) revert WrongSlot(currentSlot, slotNumber);
        // Genesis counts as slot 0, so no checkpoint can claim slot 0.
        if (slotNumber <= slots[count]) revert SlotNotAfterPreviousCheckpoint(slots[count], slotNumber);

        _checkBlobs(blobHashes);

        archives[checkpointNumber] = archive;
        slots[checkpointNumber] = slotNumber;
        checkpointCount = checkpointNumber;
        emit CheckpointProposed(checkpointNumber, archive, slotNumber, header, blobHashes);
    }

    /// @dev The header is opaque to the contract except for the fields it must agree with: its first 32 bytes are the
    /// last archive root, the next 8 the slot, and bytes 134..166 the blobs hash (hashToField of the concatenated
    /// versioned hashes: sha256 with its first byte zeroed). Layout: spec/codec/checkpointHeader.ts.
    function _checkHeader(bytes calldata header, bytes32 lastArchive, uint256 slotNumber, bytes32[] calldata blobHashes) internal pure {
        if (header.length != CHECKPOINT_HEADER_BYTES) revert MalformedHeader(header.length, CHECKPOINT_HEADER_BYTES);
        if (bytes32(header[0:32]) != lastArchive) revert HeaderMismatch("lastArchiveRoot");
        if (uint256(uint64(bytes8(header[32:40]))) != slotNumber) revert HeaderMismatch("slotNumber");
        bytes32 expectedBlobsHash = sha256(abi.encodePacked(blobHashes)) & BLOBS_HASH_MASK;
        if (bytes32(header[134:166]) != expectedBlobsHash) revert HeaderMismatch("blobsHash");
    }

    function getGenesisTime() external view returns (uint256) {
        return GENESIS_TIME;
    }

    function getSlotDuration() external view returns (uint256) {
        return SLOT_DURATION;
    }

    function getEpochDuration() external view returns (uint256) {
        return EPOCH_DURATION;
    }

    function getProofSubmissionEpochs() external view returns (uint256) {
        return PROOF_SUBMISSION_EPOCHS;
    }

    function getL1StartBlock() external view returns (uint256) {
        return L1_START_BLOCK;
    }

    function getVersion() external view returns (uint256) {
        return ROLLUP_VERSION;
    }

    function getCheckpointCount() external view returns (uint256) {
        return checkpointCount;
    }

    /// @notice Archive root after checkpoint `checkpointNumber` (0 = genesis); zero for a checkpoint not yet proposed.
    function getArchive(uint256 checkpointNumber) external view returns (bytes32) {
        return archives[checkpointNumber];
    }

    /// @notice L2 slot checkpoint `checkpointNumber` was proposed in; zero for genesis and unproposed checkpoints.
    function getCheckpointSlot(uint256 checkpointNumber) external view returns (uint256) {
        return slots[checkpointNumber];
    }

    /// @notice The L2 slot of the current L1 block: (block.timestamp - genesisTime) / slotDuration.
    function getCurrentSlot() external view returns (uint256) {
        return _currentSlot();
    }

    function _currentSlot() private view returns (uint256) {
        if (block.timestamp < GENESIS_TIME) revert BeforeGenesis(block.timestamp, GENESIS_TIME);
        return (block.timestamp - GENESIS_TIME) / SLOT_DURATION;
    }

    /// @dev The transaction's blobs must be exactly `blobHashes`: same order, none missing, none extra.
    function _checkBlobs(bytes32[] calldata blobHashes) private view {
        uint256 blobCount = blobHashes.length;
        if (blobCount == 0 || blobCount > BLOBS_PER_CHECKPOINT_MAX) {
            revert WrongBlobCount(blobCount, BLOBS_PER_CHECKPOINT_MAX);
        }
        for (uint256 i = 0; i < blobCount; i++) {
            bytes32 actual = blobhash(i);
            if (actual != blobHashes[i]) revert BlobHashMismatch(i, blobHashes[i], actual);
        }
        bytes32 extra = blobhash(blobCount);
        if (extra != bytes32(0)) revert ExtraBlob(blobCount, extra);
    }
}
