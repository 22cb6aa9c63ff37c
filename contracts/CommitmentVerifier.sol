// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IProofVerifier
/// @notice Checks a proof against its public inputs. The rollup contract only relies on this interface.
interface IProofVerifier {
    function verify(bytes calldata publicInputs, bytes calldata proof) external view returns (bool);
}

/// @title CommitmentVerifier
/// @notice The project's verifier (docs/protocol.md, Proofs): there are no circuits, so a proof is valid exactly when
/// it is the 32-byte keccak256 commitment to the public inputs. Changing any public input invalidates the proof. The
/// node's default verifier port (core/verifier/commitmentVerifier.ts) applies the same rule to tx proofs.
contract CommitmentVerifier is IProofVerifier {
    uint256 public constant COMMITMENT_BYTES = 32;

    function verify(bytes calldata publicInputs, bytes calldata proof) external pure returns (bool) {
        return proof.length == COMMITMENT_BYTES && bytes32(proof) == keccak256(publicInputs);
    }
}
