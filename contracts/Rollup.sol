// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IProofVerifier} from "./CommitmentVerifier.sol";
import {Inbox} from "./Inbox.sol";
import {Outbox} from "./Outbox.sol";

/// @title Rollup
/// @notice Records the rollup's checkpoints on L1: one archive root per checkpoint, proposed in the L2 slot it belongs
/// to, with the checkpoint's data carried in EIP-4844 blobs of the proposing transaction.
/// @dev ACCESS CONTROL: any sender may propose the next checkpoint. The validator set lives here (attester address,
/// BLS public key and proof of possession, registered by the deployer); committees, proposers and the attestations'
/// quorum are checked by the nodes when they sync (core/validators/), not by this contract: BLS verification on L1
/// would need hash-to-G2 in Solidity. The contract stores each checkpoint's attestation list (calldata, emitted with
/// CheckpointProposed) so that every node reads the same evidence.
///
/// Proofs and prunes: an epoch's checkpoints are proven together by `submitEpochProof`, checked by the epoch proof
/// verifier, once the epoch is over and at most PROOF_SUBMISSION_EPOCHS epochs after it ended. When the first unproven
/// checkpoint's epoch is past that window, the pending chain is prunable: the next `propose` (or `prune()`) rolls it
/// back to the proven checkpoint. Views already answer as if the prune had happened (a reader pinned to a block sees
/// the chain the next proposal in that block would build on).
///
/// Cross-chain messages: the rollup deploys its Inbox and Outbox. Proposing checkpoint n consumes inbox tree n, whose
/// hash must be the header's inHash; an accepted epoch proof hands its outHash (the root of the epoch's L2-to-L1
/// messages over the checkpoints it proves) to the outbox.
contract Rollup {
    /// @notice At most this many blobs per checkpoint (the L1 per-transaction blob limit after Osaka).
    uint256 public constant BLOBS_PER_CHECKPOINT_MAX = 6;
    /// @notice Length of the encoded checkpoint header (spec/codec/checkpointHeader.ts, CHECKPOINT_HEADER_BYTES).
    uint256 public constant CHECKPOINT_HEADER_BYTES = 238;
    /// @notice Where the header's inHash sits (after totalManaUsed).
    uint256 internal constant HEADER_IN_HASH_OFFSET = 174;
    bytes32 internal constant BLOBS_HASH_MASK = 0x00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;

    uint256 private immutable GENESIS_TIME;
    uint256 private immutable SLOT_DURATION;
    uint256 private immutable EPOCH_DURATION;
    uint256 private immutable PROOF_SUBMISSION_EPOCHS;
    uint256 private immutable ROLLUP_VERSION;
    uint256 private immutable L1_START_BLOCK;
    /// @dev Base currency (wei) per unit of fee asset, scaled by 10**12; fixed at deployment. Nodes convert the fee
    /// floor, set in wei, into the fee asset with it (spec/constants.ts, MIN_COST_WEI_PER_MEGA_MANA).
    uint256 private immutable ETH_PER_FEE_ASSET;
    IProofVerifier private immutable EPOCH_PROOF_VERIFIER;
    Inbox private immutable INBOX;
    Outbox private immutable OUTBOX;

    /// @dev Number of checkpoints proposed so far (checkpoint numbers start at 1; 0 is genesis).
    uint256 private checkpointCount;
    /// @dev Archive root after each checkpoint; archives[0] is the genesis archive.
    mapping(uint256 checkpointNumber => bytes32 archive) private archives;
    /// @dev L2 slot each checkpoint was proposed in (unset for genesis).
    mapping(uint256 checkpointNumber => uint256 slot) private slots;
    /// @dev Last checkpoint covered by an accepted epoch proof (0: none yet) and the L1 block of that proof.
    uint256 private provenCheckpointNumber;
    uint256 private provenAtL1Block;

    /// @notice Validators the set may hold (spec/validators/constants.ts VALIDATOR_SET_SIZE_MAX).
    uint256 public constant VALIDATOR_SET_SIZE_MAX = 1_000_000;
    /// @notice Epochs between a registration and the first committee it may sit on (COMMITTEE_SEED_LAG_EPOCHS).
    uint256 public constant VALIDATOR_ACTIVATION_LAG_EPOCHS = 2;
    /// @notice Bytes of an encoded attestation list at most: a count and 48 entries of seat and signature.
    uint256 public constant ATTESTATIONS_BYTES_MAX = 2 + 48 * 98;
    uint256 internal constant BLS_PUBLIC_KEY_BYTES = 48;
    uint256 internal constant BLS_SIGNATURE_BYTES = 96;

    /// @dev One registered validator. `activeFromEpoch` is 0 for validators registered before the first checkpoint
    /// (the genesis set), else the registration's epoch plus VALIDATOR_ACTIVATION_LAG_EPOCHS, so that a committee
    /// never changes once the node can compute it.
    struct ValidatorEntry {
        address attester;
        uint64 activeFromEpoch;
        bytes blsPublicKey;
        bytes proofOfPossession;
    }

    address private immutable OWNER;
    ValidatorEntry[] private validators;
    mapping(address attester => bool) private registered;
    /// @dev Set by the first accepted proposal; a registration after it waits VALIDATOR_ACTIVATION_LAG_EPOCHS.
    bool private anyCheckpointProposed;

    event CheckpointProposed(
        uint256 indexed checkpointNumber,
        bytes32 indexed archive,
        uint256 slotNumber,
        bytes header,
        bytes32[] blobHashes,
        bytes attestations
    );
    event EpochProven(
        uint256 indexed epoch,
        uint256 fromCheckpoint,
        uint256 indexed toCheckpoint,
        bytes32 endArchive,
        bytes32 outHash
    );
    /// @notice The pending chain went back from `pendingCheckpointCount` checkpoints to the proven ones.
    event ChainPruned(uint256 indexed provenCheckpointNumber, uint256 pendingCheckpointCount);
    event ValidatorAdded(address indexed attester, uint256 index, uint256 activeFromEpoch);

    error ZeroSlotDuration();
    error ZeroEpochDuration();
    error ZeroEthPerFeeAsset();
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
    error NoEpochProofVerifier(address verifier);
    error EpochProofWrongStart(uint256 expected, uint256 given);
    error EpochProofWrongRange(uint256 fromCheckpoint, uint256 toCheckpoint, uint256 checkpointCount);
    error CheckpointNotInEpoch(uint256 checkpointNumber, uint256 epoch);
    error EpochIncomplete(uint256 epoch, uint256 nextCheckpointNumber);
    error EpochNotOver(uint256 epoch, uint256 currentEpoch);
    error ProofWindowPassed(uint256 epoch, uint256 currentEpoch);
    error WrongEndArchive(bytes32 expected, bytes32 given);
    error InvalidEpochProof();
    error NothingToPrune();
    error NotOwner(address sender);
    error ValidatorAlreadyRegistered(address attester);
    error ValidatorSetFull(uint256 max);
    error MalformedValidatorKey(uint256 publicKeyLength, uint256 proofLength);
    error AttestationsTooLong(uint256 length, uint256 max);
    error WrongInHash(bytes32 expected, bytes32 given);

    constructor(
        bytes32 genesisArchive,
        uint256 genesisTime,
        uint256 slotDuration,
        uint256 epochDuration,
        uint256 proofSubmissionEpochs,
        uint256 rollupVersion,
        uint256 ethPerFeeAsset,
        IProofVerifier epochProofVerifier
    ) {
        if (slotDuration == 0) revert ZeroSlotDuration();
        if (epochDuration == 0) revert ZeroEpochDuration();
        if (ethPerFeeAsset == 0) revert ZeroEthPerFeeAsset();
        if (address(epochProofVerifier).code.length == 0) revert NoEpochProofVerifier(address(epochProofVerifier));
        GENESIS_TIME = genesisTime == 0 ? block.timestamp : genesisTime;
        SLOT_DURATION = slotDuration;
        EPOCH_DURATION = epochDuration;
        PROOF_SUBMISSION_EPOCHS = proofSubmissionEpochs;
        ROLLUP_VERSION = rollupVersion;
        ETH_PER_FEE_ASSET = ethPerFeeAsset;
        L1_START_BLOCK = block.number;
        EPOCH_PROOF_VERIFIER = epochProofVerifier;
        OWNER = msg.sender;
        archives[0] = genesisArchive;
        INBOX = new Inbox(address(this));
        OUTBOX = new Outbox(address(this));
    }

    /// @notice Registers a validator (deployer only). The proof of possession (a BLS signature by the key of its own
    /// address and key, spec/validators/signingPayloads.ts) is stored, not checked here: nodes check it when they read
    /// the set and leave out entries whose proof fails.
    function addValidator(address attester, bytes calldata blsPublicKey, bytes calldata proofOfPossession) external {
        if (msg.sender != OWNER) revert NotOwner(msg.sender);
        if (registered[attester]) revert ValidatorAlreadyRegistered(attester);
        if (validators.length >= VALIDATOR_SET_SIZE_MAX) revert ValidatorSetFull(VALIDATOR_SET_SIZE_MAX);
        if (blsPublicKey.length != BLS_PUBLIC_KEY_BYTES || proofOfPossession.length != BLS_SIGNATURE_BYTES) {
            revert MalformedValidatorKey(blsPublicKey.length, proofOfPossession.length);
        }
        uint256 activeFromEpoch = anyCheckpointProposed ? _epochOf(_currentSlot()) + VALIDATOR_ACTIVATION_LAG_EPOCHS : 0;
        registered[attester] = true;
        validators.push(ValidatorEntry(attester, uint64(activeFromEpoch), blsPublicKey, proofOfPossession));
        emit ValidatorAdded(attester, validators.length - 1, activeFromEpoch);
    }

    function getValidatorCount() external view returns (uint256) {
        return validators.length;
    }

    function getValidator(uint256 index)
        external
        view
        returns (address attester, bytes memory blsPublicKey, bytes memory proofOfPossession, uint256 activeFromEpoch)
    {
        ValidatorEntry storage entry = validators[index];
        return (entry.attester, entry.blsPublicKey, entry.proofOfPossession, entry.activeFromEpoch);
    }

    /// @notice Records checkpoint `checkpointNumber`. The transaction must carry exactly `blobHashes.length` blobs whose
    /// versioned hashes are `blobHashes`, in order. A prunable pending chain is pruned first, so the proposal must build
    /// on the proven checkpoint then. `attestations` is the committee's attestation list
    /// (spec/validators/checkpointAttestations.ts), emitted as is for the nodes to check.
    function propose(
        uint256 checkpointNumber,
        bytes32 archive,
        bytes32 lastArchive,
        uint256 slotNumber,
        bytes calldata header,
        bytes32[] calldata blobHashes,
        bytes calldata attestations
    ) external {
        _checkHeader(header, lastArchive, slotNumber, blobHashes);
        if (attestations.length > ATTESTATIONS_BYTES_MAX) revert AttestationsTooLong(attestations.length, ATTESTATIONS_BYTES_MAX);
        if (_canPrune()) _prune();
        uint256 count = checkpointCount;
        if (checkpointNumber != count + 1) revert WrongCheckpointNumber(count + 1, checkpointNumber);
        if (lastArchive != archives[count]) revert WrongLastArchive(archives[count], lastArchive);

        uint256 currentSlot = _currentSlot();
        if (slotNumber != currentSlot) revert WrongSlot(currentSlot, slotNumber);
        // Genesis counts as slot 0, so no checkpoint can claim slot 0.
        if (slotNumber <= slots[count]) revert SlotNotAfterPreviousCheckpoint(slots[count], slotNumber);

        _checkBlobs(blobHashes);
        _consumeInbox(checkpointNumber, header);

        archives[checkpointNumber] = archive;
        slots[checkpointNumber] = slotNumber;
        checkpointCount = checkpointNumber;
        anyCheckpointProposed = true;
        emit CheckpointProposed(checkpointNumber, archive, slotNumber, header, blobHashes, attestations);
    }

    /// @notice Proves epoch `epoch`: checkpoints `fromCheckpoint` (the first unproven one) to `toCheckpoint` (the epoch's
    /// last), ending at archive `endArchive`. The verifier checks `proof` against the public inputs
    /// abi.encode(epoch, fromCheckpoint, toCheckpoint, previousArchive, endArchive, outHash), where previousArchive is the
    /// archive of checkpoint fromCheckpoint - 1 and outHash is the root of the epoch's L2-to-L1 messages over the
    /// proven checkpoints (zero when there are none), which goes to the outbox.
    function submitEpochProof(
        uint256 epoch,
        uint256 fromCheckpoint,
        uint256 toCheckpoint,
        bytes32 endArchive,
        bytes32 outHash,
        bytes calldata proof
    ) external {
        _checkEpochRange(epoch, fromCheckpoint, toCheckpoint);
        uint256 currentEpoch = _epochOf(_currentSlot());
        if (currentEpoch <= epoch) revert EpochNotOver(epoch, currentEpoch);
        if (currentEpoch > epoch + PROOF_SUBMISSION_EPOCHS) revert ProofWindowPassed(epoch, currentEpoch);
        if (endArchive != archives[toCheckpoint]) revert WrongEndArchive(archives[toCheckpoint], endArchive);
        bytes memory publicInputs =
            abi.encode(epoch, fromCheckpoint, toCheckpoint, archives[fromCheckpoint - 1], endArchive, outHash);
        if (!EPOCH_PROOF_VERIFIER.verify(publicInputs, proof)) revert InvalidEpochProof();
        provenCheckpointNumber = toCheckpoint;
        provenAtL1Block = block.number;
        if (outHash != bytes32(0)) OUTBOX.insert(epoch, toCheckpoint - fromCheckpoint + 1, outHash);
        emit EpochProven(epoch, fromCheckpoint, toCheckpoint, endArchive, outHash);
    }

    /// @notice Rolls the pending chain back to the proven checkpoint; reverts NothingToPrune unless it is prunable.
    function prune() external {
        if (!_canPrune()) revert NothingToPrune();
        _prune();
    }

    /// @dev The range is exactly the epoch's unproven checkpoints: it starts right after the proven one, every
    /// checkpoint in it belongs to `epoch` (slots only grow, so checking both ends suffices), and the next one, if any,
    /// belongs to a later epoch.
    function _checkEpochRange(uint256 epoch, uint256 fromCheckpoint, uint256 toCheckpoint) private view {
        uint256 proven = provenCheckpointNumber;
        if (fromCheckpoint != proven + 1) revert EpochProofWrongStart(proven + 1, fromCheckpoint);
        uint256 count = checkpointCount;
        if (toCheckpoint < fromCheckpoint || toCheckpoint > count) {
            revert EpochProofWrongRange(fromCheckpoint, toCheckpoint, count);
        }
        if (_epochOf(slots[fromCheckpoint]) != epoch) revert CheckpointNotInEpoch(fromCheckpoint, epoch);
        if (_epochOf(slots[toCheckpoint]) != epoch) revert CheckpointNotInEpoch(toCheckpoint, epoch);
        if (toCheckpoint < count && _epochOf(slots[toCheckpoint + 1]) == epoch) revert EpochIncomplete(epoch, toCheckpoint + 1);
    }

    /// @dev Checkpoint `checkpointNumber` consumes inbox tree `checkpointNumber`: its hash must be the header's inHash.
    function _consumeInbox(uint256 checkpointNumber, bytes calldata header) private {
        bytes32 given = bytes32(header[HEADER_IN_HASH_OFFSET:HEADER_IN_HASH_OFFSET + 32]);
        bytes32 expected = INBOX.consume(checkpointNumber);
        if (given != expected) revert WrongInHash(expected, given);
    }

    /// @dev Prunable: some checkpoint is unproven and the first one's epoch ended more than PROOF_SUBMISSION_EPOCHS
    /// epochs before the current one began.
    function _canPrune() private view returns (bool) {
        uint256 proven = provenCheckpointNumber;
        if (checkpointCount == proven || block.timestamp < GENESIS_TIME) return false;
        return _epochOf(_currentSlot()) > _epochOf(slots[proven + 1]) + PROOF_SUBMISSION_EPOCHS;
    }

    function _prune() private {
        uint256 pending = checkpointCount;
        checkpointCount = provenCheckpointNumber;
        emit ChainPruned(provenCheckpointNumber, pending);
    }

    /// @dev Checkpoints on the pending chain as readers see it: a prunable chain counts as pruned.
    function _pendingCount() private view returns (uint256) {
        return _canPrune() ? provenCheckpointNumber : checkpointCount;
    }

    function _epochOf(uint256 slot) private view returns (uint256) {
        return slot / EPOCH_DURATION;
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

    function getEthPerFeeAsset() external view returns (uint256) {
        return ETH_PER_FEE_ASSET;
    }

    function getEpochProofVerifier() external view returns (address) {
        return address(EPOCH_PROOF_VERIFIER);
    }

    function getInbox() external view returns (address) {
        return address(INBOX);
    }

    function getOutbox() external view returns (address) {
        return address(OUTBOX);
    }

    /// @notice Checkpoints on the pending chain; a chain that the next proposal would prune counts as pruned.
    function getCheckpointCount() external view returns (uint256) {
        return _pendingCount();
    }

    /// @notice Archive root after checkpoint `checkpointNumber` (0 = genesis); zero for a checkpoint not on the pending
    /// chain (not yet proposed, or pruned).
    function getArchive(uint256 checkpointNumber) external view returns (bytes32) {
        return checkpointNumber > _pendingCount() ? bytes32(0) : archives[checkpointNumber];
    }

    /// @notice L2 slot checkpoint `checkpointNumber` was proposed in; zero for genesis and checkpoints not on the
    /// pending chain.
    function getCheckpointSlot(uint256 checkpointNumber) external view returns (uint256) {
        return checkpointNumber > _pendingCount() ? 0 : slots[checkpointNumber];
    }

    /// @notice The last proven checkpoint (0: none) and the L1 block holding the proof that proved it (0: none).
    function getProvenCheckpoint() external view returns (uint256 checkpointNumber, uint256 l1BlockNumber) {
        return (provenCheckpointNumber, provenAtL1Block);
    }

    /// @notice Whether the pending chain holds an epoch past its proof window (the next proposal prunes it).
    function canPrune() external view returns (bool) {
        return _canPrune();
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
