// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Outbox
/// @notice L2-to-L1 messages. With each accepted epoch proof the rollup hands over the root of the epoch's messages over
/// the checkpoints the proof covers (spec/messages/outbox.ts gives the tree); a recipient then consumes a message once,
/// proving it with a sibling path against one of the epoch's roots.
/// @dev A message's leaf is hashToField(recipient left-padded to 32 bytes || content); the recipient is the caller.
/// A message is consumed at most once per epoch, whichever of the epoch's roots proves it. Its position is the leaf
/// index with the path length below the epoch level (a root over k checkpoints adds ceil(log2(k)) levels on top and
/// no index bits to the epoch's first checkpoint), which is the same under every root of the epoch, and unique.
contract Outbox {
    bytes32 internal constant FIELD_HASH_MASK = 0x00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;
    /// @notice Longest sibling path accepted: four nested levels of at most 2^64 leaves each is far beyond any epoch.
    uint256 public constant SIBLING_PATH_LENGTH_MAX = 256;

    address public immutable ROLLUP;

    mapping(uint256 epoch => mapping(uint256 checkpointsCovered => bytes32 root)) private roots;
    /// @dev The checkpoint counts an epoch has roots for, in insertion order.
    mapping(uint256 epoch => uint256[] counts) private coveredCounts;
    /// @dev The number of checkpoints each known root covers (zero: not a root of the epoch).
    mapping(uint256 epoch => mapping(bytes32 root => uint256 checkpointsCovered)) private rootCoverage;
    mapping(uint256 epoch => mapping(bytes32 position => bool done)) private consumed;

    event RootAdded(uint256 indexed epoch, uint256 checkpointsCovered, bytes32 root);
    event MessageConsumed(uint256 indexed epoch, bytes32 indexed root, bytes32 indexed leaf, uint256 leafIndex, address recipient);

    error OnlyRollup(address caller);
    error UnknownRoot(uint256 epoch, bytes32 root);
    error AlreadyConsumed(uint256 epoch, uint256 leafIndex);
    error PathTooLong(uint256 length, uint256 max);
    error InvalidWitness(bytes32 computedRoot, bytes32 root);
    error LeafIndexOutOfRange(uint256 leafIndex, uint256 siblingPathLength);
    error PathShorterThanEpochLevel(uint256 siblingPathLength, uint256 epochLevelHeight);
    error ZeroCheckpoints();

    constructor(address rollup) {
        ROLLUP = rollup;
    }

    /// @notice Records `root`, the messages of the first `checkpointsCovered` checkpoints of `epoch`.
    function insert(uint256 epoch, uint256 checkpointsCovered, bytes32 root) external {
        if (msg.sender != ROLLUP) revert OnlyRollup(msg.sender);
        if (checkpointsCovered == 0) revert ZeroCheckpoints();
        if (roots[epoch][checkpointsCovered] == bytes32(0)) coveredCounts[epoch].push(checkpointsCovered);
        roots[epoch][checkpointsCovered] = root;
        rootCoverage[epoch][root] = checkpointsCovered;
        emit RootAdded(epoch, checkpointsCovered, root);
    }

    /// @notice Consumes the caller's message `content` of `epoch`, at `leafIndex` under `root` with `siblingPath`
    /// (nearest the leaf first); reverts when the root is unknown, the path does not lead to it, or it was consumed.
    function consume(uint256 epoch, bytes32 root, bytes32 content, uint256 leafIndex, bytes32[] calldata siblingPath) external returns (bytes32 leaf) {
        bytes32 position = _position(epoch, root, leafIndex, siblingPath.length);
        if (consumed[epoch][position]) revert AlreadyConsumed(epoch, leafIndex);
        leaf = sha256(abi.encode(uint256(uint160(msg.sender)), content)) & FIELD_HASH_MASK;
        bytes32 node = leaf;
        uint256 index = leafIndex;
        for (uint256 i = 0; i < siblingPath.length; i++) {
            node = (index & 1) == 0
                ? sha256(abi.encodePacked(node, siblingPath[i])) & FIELD_HASH_MASK
                : sha256(abi.encodePacked(siblingPath[i], node)) & FIELD_HASH_MASK;
            index >>= 1;
        }
        if (node != root) revert InvalidWitness(node, root);
        consumed[epoch][position] = true;
        emit MessageConsumed(epoch, root, leaf, leafIndex, msg.sender);
    }

    /// @notice The root of `epoch` covering the fewest checkpoints, at least `checkpointsNeeded`; (0, 0) when none.
    function smallestCoveringRoot(uint256 epoch, uint256 checkpointsNeeded) external view returns (uint256 checkpointsCovered, bytes32 root) {
        uint256[] storage counts = coveredCounts[epoch];
        for (uint256 i = 0; i < counts.length; i++) {
            uint256 count = counts[i];
            if (count >= checkpointsNeeded && (checkpointsCovered == 0 || count < checkpointsCovered)) checkpointsCovered = count;
        }
        if (checkpointsCovered != 0) root = roots[epoch][checkpointsCovered];
    }

    function getRoot(uint256 epoch, uint256 checkpointsCovered) external view returns (bytes32) {
        return roots[epoch][checkpointsCovered];
    }

    /// @notice Whether the message at `leafIndex` with a path of `siblingPathLength` under `root` was consumed.
    function isConsumed(uint256 epoch, bytes32 root, uint256 leafIndex, uint256 siblingPathLength) external view returns (bool) {
        return consumed[epoch][_position(epoch, root, leafIndex, siblingPathLength)];
    }

    /// @dev The message's position in its epoch, the same under every root of the epoch (see the contract notes).
    function _position(uint256 epoch, bytes32 root, uint256 leafIndex, uint256 siblingPathLength) private view returns (bytes32) {
        uint256 covered = rootCoverage[epoch][root];
        if (covered == 0) revert UnknownRoot(epoch, root);
        if (siblingPathLength > SIBLING_PATH_LENGTH_MAX) revert PathTooLong(siblingPathLength, SIBLING_PATH_LENGTH_MAX);
        if (siblingPathLength < 256 && leafIndex >> siblingPathLength != 0) revert LeafIndexOutOfRange(leafIndex, siblingPathLength);
        uint256 epochLevelHeight = 0;
        while ((uint256(1) << epochLevelHeight) < covered) epochLevelHeight++;
        if (siblingPathLength < epochLevelHeight) revert PathShorterThanEpochLevel(siblingPathLength, epochLevelHeight);
        return keccak256(abi.encode(leafIndex, siblingPathLength - epochLevelHeight));
    }
}
