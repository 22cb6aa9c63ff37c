/**
 * Byte encoding of contract publications, shared by the tx preimage (spec/codec/tx.ts) and tx effects
 * (spec/codec/txEffect.ts). Class: id 32 | version u64 | artifactHash 32 | privateFunctionsRoot 32 |
 * publicBytecodeCommitment 32 | bytecode u32 length + bytes. Instance: address 32 | version u64 | salt 32 |
 * deployer 32 | currentContractClassId 32 | originalContractClassId 32 | initializationHash 32 | publicKeysHash 32.
 */
import type { ContractClassPublication, ContractInstancePublication } from '../chain.js';
import { PUBLIC_BYTECODE_BYTES_MAX } from '../constants.js';
import type { ByteWriter } from './bytes.js';
import { bytesToHex, hexToBytes, type ByteReader, CodecError } from './bytes.js';

const FIELD = 32;
const VERSION_BYTES = 8;
const LENGTH_BYTES = 4;

export function writeContractClass(w: ByteWriter, publication: ContractClassPublication): void {
  const bytecode = hexToBytes(publication.packedBytecode);
  if (bytecode.length > PUBLIC_BYTECODE_BYTES_MAX) {
    throw new CodecError(`public bytecode of ${bytecode.length} bytes exceeds ${PUBLIC_BYTECODE_BYTES_MAX}`);
  }
  w.hex(publication.id, FIELD).uint(publication.version, VERSION_BYTES).hex(publication.artifactHash, FIELD);
  w.hex(publication.privateFunctionsRoot, FIELD).hex(publication.publicBytecodeCommitment, FIELD);
  w.uint(bytecode.length, LENGTH_BYTES).bytes(bytecode);
}

export function readContractClass(r: ByteReader): ContractClassPublication {
  const id = r.hex(FIELD);
  const version = r.number(VERSION_BYTES);
  const artifactHash = r.hex(FIELD);
  const privateFunctionsRoot = r.hex(FIELD);
  const publicBytecodeCommitment = r.hex(FIELD);
  const length = r.number(LENGTH_BYTES);
  if (length > PUBLIC_BYTECODE_BYTES_MAX)
    throw new CodecError(`public bytecode of ${length} bytes exceeds ${PUBLIC_BYTECODE_BYTES_MAX}`);
  return {
    id,
    version,
    artifactHash,
    privateFunctionsRoot,
    publicBytecodeCommitment,
    packedBytecode: bytesToHex(r.bytes(length)),
  };
}

export function writeContractInstance(w: ByteWriter, instance: ContractInstancePublication): void {
  w.hex(instance.address, FIELD)
    .uint(instance.version, VERSION_BYTES)
    .hex(instance.salt, FIELD)
    .hex(instance.deployer, FIELD);
  w.hex(instance.currentContractClassId, FIELD).hex(instance.originalContractClassId, FIELD);
  w.hex(instance.initializationHash, FIELD).hex(instance.publicKeysHash, FIELD);
}

export function readContractInstance(r: ByteReader): ContractInstancePublication {
  return {
    address: r.hex(FIELD),
    version: r.number(VERSION_BYTES),
    salt: r.hex(FIELD),
    deployer: r.hex(FIELD),
    currentContractClassId: r.hex(FIELD),
    originalContractClassId: r.hex(FIELD),
    initializationHash: r.hex(FIELD),
    publicKeysHash: r.hex(FIELD),
  };
}
