/**
 * The node's peer key, which fixes its peer id and signs its ENR: secp256k1, because discv5 and ENRs need it. Kept in
 * `<dataDirectory>/p2p-private-key` (hex of the libp2p protobuf encoding, created with mode 0600) so a node keeps its
 * id across restarts, or given in P2P_PRIVATE_KEY.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateKeyPair, privateKeyFromProtobuf, privateKeyFromRaw, privateKeyToProtobuf } from '@libp2p/crypto/keys';
import type { PrivateKey } from '@libp2p/interface';
import { CodedError, type NoDetails } from '../../../spec/errors.js';

export const PEER_KEY_FILE_NAME = 'p2p-private-key';

export class PeerKeyError extends CodedError<'P2P_PRIVATE_KEY_INVALID', NoDetails> {
  constructor(shortMessage: string, options?: { cause?: unknown }) {
    super('P2P_PRIVATE_KEY_INVALID', shortMessage, {}, options);
    this.name = 'PeerKeyError';
  }
}

/**
 * The persistent peer key: `<dataDirectory>/p2p-private-key` (created 0600 when absent), or the hex/protobuf key given
 * in env P2P_PRIVATE_KEY (`fromEnv`) when set; neither → a fresh key each start (data-less nodes).
 */
export async function loadOrCreatePeerKey(
  dataDirectory: string | undefined,
  fromEnv: string | undefined,
): Promise<PrivateKey> {
  if (fromEnv !== undefined && fromEnv.trim() !== '') return parsePeerKey(fromEnv, 'P2P_PRIVATE_KEY');
  if (dataDirectory === undefined) return generateKeyPair('secp256k1');
  const path = join(dataDirectory, PEER_KEY_FILE_NAME);
  const stored = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (stored !== undefined) return parsePeerKey(stored, path);
  const key = await generateKeyPair('secp256k1');
  await mkdir(dataDirectory, { recursive: true });
  // `wx`: never overwrite a key another process wrote meanwhile; read theirs instead.
  const written = await writeFile(path, `${Buffer.from(privateKeyToProtobuf(key)).toString('hex')}\n`, {
    mode: 0o600,
    flag: 'wx',
  }).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
  return written ? key : parsePeerKey(await readFile(path, 'utf8'), path);
}

/** A secp256k1 key from hex (with or without 0x) of its protobuf encoding or of its 32 raw bytes. */
export function parsePeerKey(text: string, source: string): PrivateKey {
  const hex = text.trim().replace(/^0x/i, '');
  if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new PeerKeyError(`the peer key in ${source} is not hex`);
  const bytes = Buffer.from(hex, 'hex');
  let key: PrivateKey;
  try {
    key = bytes.length === 32 ? privateKeyFromRaw(bytes) : privateKeyFromProtobuf(bytes);
  } catch (cause) {
    throw new PeerKeyError(`the peer key in ${source} is not a libp2p private key`, { cause });
  }
  if (key.type !== 'secp256k1') {
    throw new PeerKeyError(`the peer key in ${source} is ${key.type}; discv5 and ENRs need secp256k1`);
  }
  return key;
}
