export { encryptSecret } from "./encrypt-secret";
export { decryptSecret } from "./decrypt-secret";
export { needsReencryption } from "./needs-reencryption";
export { reencryptSecret } from "./reencrypt-secret";
export { isSecretEnvelope } from "./envelope";
export { loadEncryptionKeys, parseEncryptionKeys, resetEncryptionKeysForTests, KEY_FILE_NAME, type EncryptionKeyring } from "./encryption-keys";
