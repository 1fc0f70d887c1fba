// Message ids are unique platform-wide without a D1 write per message: each ledger owns a block of 2^32 ids, the
// block its registry row was given (ledgers.id_base), and its SQLite AUTOINCREMENT starts there. Ids made in D1
// before the messages moved are all below 2^32 (block 0) and were copied into their organisation's first ledger
// with their ids, so every id ever handed out still names one message. 2^21 blocks fit in a safe integer.

export const ID_BLOCK = 2 ** 32;

/** The first id of a block, less one (what AUTOINCREMENT continues after). */
export const blockStart = (idBase: number) => idBase * ID_BLOCK;

/** The block an id belongs to (0: made before the move). */
export const blockOf = (id: number) => Math.floor(id / ID_BLOCK);
