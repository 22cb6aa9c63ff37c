/**
 * Why a public VM frame or phase reverted. The codes are stable strings: they appear in revert reasons served to
 * users (`<code>: <details>`), so a code is never renamed or reused.
 */
export const VM_REVERT_CODES = {
  EXPLICIT_REVERT: 'the program executed `revert`',
  OUT_OF_GAS: 'the tx ran out of mana (its gas limit for L2 gas)',
  INSTRUCTION_LIMIT_EXCEEDED: 'the tx executed INSTRUCTIONS_PER_TX_MAX instructions',
  DIVISION_BY_ZERO: '`div` or `mod` by zero',
  CALLDATA_OUT_OF_RANGE: '`calldataload` past the end of the calldata',
  STATIC_CALL_WRITE: 'a storage write or an emit in a static call',
  EFFECT_LIMIT_EXCEEDED: "an emit or a new storage slot past the tx's per-tx bound",
  DUPLICATE_NULLIFIER: 'a nullifier that already exists',
  INVALID_RECIPIENT: 'an L2-to-L1 message recipient of 2^160 or more',
  CALL_DEPTH_EXCEEDED: 'a call nested deeper than CALL_DEPTH_MAX',
  CONTRACT_NOT_FOUND: 'a call to an address with no published instance or no known class',
  BYTECODE_INVALID: "the contract's bytecode does not decode to a valid program",
  DA_GAS_LIMIT_EXCEEDED: "the phase's effects took the tx above its DA gas limit",
} as const;

export type VmRevertCode = keyof typeof VM_REVERT_CODES;
