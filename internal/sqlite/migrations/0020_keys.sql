-- 0020_keys: secret keys every process shares, made once by whichever
-- process starts first (Store.SigningKey): the key that signs the CSRF
-- tokens of visitors without a session.
CREATE TABLE keys (
	name  TEXT PRIMARY KEY,
	value BLOB NOT NULL
) WITHOUT ROWID;
