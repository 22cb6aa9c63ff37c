// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Inbox
/// @notice L1-to-L2 messages. Anyone sends a message for an L2 recipient; the inbox groups messages into numbered trees,
/// tree n being consumed by checkpoint n (spec/messages/inbox.ts). Tree 1 is empty and sealed from the start; proposing
/// checkpoint n seals tree n + 1, so a checkpoint consumes the messages sent before the previous checkpoint landed. A
/// full tree is sealed early: the next message opens the next tree.
/// @dev Deployed by the rollup contract, which alone may consume trees. A tree's hash is a running hash of its leaves
/// (hashToField(previous || leaf), zero when empty); the rollup compares it with the proposed checkpoint's inHash.
contract Inbox {
    /// @notice Messages one tree holds; mirrors spec/constants.ts L1_TO_L2_MESSAGES_PER_CHECKPOINT.
    uint256 public constant MESSAGES_PER_CHECKPOINT = 16;
    /// @notice The BN254 scalar field modulus: recipient, content and secret hash must be field elements.
    uint256 public constant FIELD_MODULUS = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001;
    bytes32 internal constant FIELD_HASH_MASK = 0x00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;

    address public immutable ROLLUP;

    /// @dev The tree new messages go into; every tree below it is sealed.
    uint256 private inProgress;
    mapping(uint256 tree => bytes32 runningHash) private treeHashes;
    mapping(uint256 tree => uint256 messageCount) private treeSizes;

    /// @notice A message was added to tree `checkpointNumber` (the checkpoint that will consume it) at global index
    /// `index` (its leaf in the L2 L1-to-L2 message tree); `treeHash` is the tree's running hash after it.
    event MessageSent(uint256 indexed checkpointNumber, uint256 index, bytes32 indexed leaf, bytes32 treeHash);

    error NotAField(string field, bytes32 value);
    error OnlyRollup(address caller);
    error TreeNotSealed(uint256 tree, uint256 inProgress);

    constructor(address rollup) {
        ROLLUP = rollup;
        inProgress = 2;
    }

    /// @notice Sends `content` to L2 address `recipient`; `secretHash` lets the recipient claim it privately.
    /// @return leaf The message's leaf in the L1-to-L2 message tree.
    /// @return index Its global index (leaf position) there.
    function sendL2Message(bytes32 recipient, bytes32 content, bytes32 secretHash) external returns (bytes32 leaf, uint256 index) {
        _checkField("recipient", recipient);
        _checkField("content", content);
        _checkField("secretHash", secretHash);
        uint256 tree = inProgress;
        if (treeSizes[tree] == MESSAGES_PER_CHECKPOINT) {
            tree += 1;
            inProgress = tree;
        }
        uint256 position = treeSizes[tree];
        index = (tree - 1) * MESSAGES_PER_CHECKPOINT + position;
        leaf = sha256(abi.encode(uint256(uint160(msg.sender)), recipient, content, secretHash, index)) & FIELD_HASH_MASK;
        bytes32 treeHash = sha256(abi.encodePacked(treeHashes[tree], leaf)) & FIELD_HASH_MASK;
        treeHashes[tree] = treeHash;
        treeSizes[tree] = position + 1;
        emit MessageSent(tree, index, leaf, treeHash);
    }

    /// @notice Hash of tree `checkpointNumber`, which the rollup's checkpoint of that number consumes. Proposing the
    /// newest checkpoint seals the tree in progress; a re-proposal after a prune finds its tree sealed already.
    function consume(uint256 checkpointNumber) external returns (bytes32) {
        if (msg.sender != ROLLUP) revert OnlyRollup(msg.sender);
        uint256 progress = inProgress;
        if (checkpointNumber >= progress) revert TreeNotSealed(checkpointNumber, progress);
        if (checkpointNumber + 1 == progress) inProgress = progress + 1;
        return treeHashes[checkpointNumber];
    }

    /// @notice The tree new messages go into.
    function getInProgress() external view returns (uint256) {
        return inProgress;
    }

    function getTreeHash(uint256 tree) external view returns (bytes32) {
        return treeHashes[tree];
    }

    function getTreeSize(uint256 tree) external view returns (uint256) {
        return treeSizes[tree];
    }

    function _checkField(string memory field, bytes32 value) private pure {
        if (uint256(value) >= FIELD_MODULUS) revert NotAField(field, value);
    }
}
