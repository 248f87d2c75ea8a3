/* See COPYING file for copyright and license details. */
/*
 * sqlwork: the driver of the large benchmark program (tests/large/
 * build-large.sh).  It runs a deterministic SQL workload on an in-memory
 * SQLite database: inserts, indexes, joins, grouping, sorting, window
 * functions, recursive CTEs, string, JSON and FTS5 functions, updates and
 * deletes, each round with values from a fixed LCG; every row it reads
 * also goes to a buffer that zstd compresses and decompresses at a level
 * that changes with the round.  It prints one checksum of all the rows
 * and all the compressed bytes.  The same scale gives the same output
 * on every run and every build of the program (plain, PIE, BOLTed).
 *
 * usage: sqlwork [ROUNDS]   (default 8, about one second)
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static sqlite3 *db;
static uint64_t sum = 1469598103934665603ULL;
static uint64_t rng = 42;
static char rows[1 << 20];
static size_t nrows;

static uint32_t
lcg(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng >> 33);
}

static void
mix(const void *p, size_t n)
{
	const unsigned char *s = p;
	if (n < sizeof rows - nrows) {
		memcpy(rows + nrows, p, n);
		nrows += n;
	}
	while (n--) {
		sum ^= *s++;
		sum *= 1099511628211ULL;
	}
}

static int
row(void *u, int n, char **v, char **names)
{
	(void)u;
	(void)names;
	for (int i = 0; i < n; i++)
		if (v[i] != NULL)
			mix(v[i], strlen(v[i]));
		else
			mix("", 1);
	return 0;
}

static void
exec(const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, row, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "sqlwork: %s: %s\n", sql, msg ? msg : "?");
		exit(1);
	}
}

static const char *words[] = {
	"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
	"hotel", "india", "juliet", "kilo", "lima", "mike", "november",
	"oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform",
	"victor", "whiskey", "xray", "yankee", "zulu",
};
#define NWORDS (sizeof words / sizeof words[0])

static void
fill(int n)
{
	sqlite3_stmt *ins, *ord, *doc;
	char text[256];

	exec("BEGIN");
	if (sqlite3_prepare_v2(db, "INSERT INTO item(name, price, cat, tags) "
	    "VALUES(?1, ?2, ?3, json_array(?4, ?5))", -1, &ins, NULL) ||
	    sqlite3_prepare_v2(db, "INSERT INTO ord(item, qty, day) "
	    "VALUES(?1, ?2, ?3)", -1, &ord, NULL) ||
	    sqlite3_prepare_v2(db, "INSERT INTO doc(body) VALUES(?1)", -1,
	    &doc, NULL)) {
		fprintf(stderr, "sqlwork: prepare: %s\n", sqlite3_errmsg(db));
		exit(1);
	}
	for (int i = 0; i < n; i++) {
		snprintf(text, sizeof text, "%s-%s-%u", words[lcg() % NWORDS],
		    words[lcg() % NWORDS], lcg() % 1000);
		sqlite3_bind_text(ins, 1, text, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(ins, 2, (lcg() % 100000) / 100.0);
		sqlite3_bind_int(ins, 3, (int)(lcg() % 37));
		sqlite3_bind_text(ins, 4, words[lcg() % NWORDS], -1, SQLITE_STATIC);
		sqlite3_bind_int(ins, 5, (int)(lcg() % 10));
		sqlite3_step(ins);
		sqlite3_reset(ins);
		for (int k = lcg() % 4; k >= 0; k--) {
			sqlite3_bind_int64(ord, 1, (sqlite3_int64)(lcg() % (unsigned)(i + 1)) + 1);
			sqlite3_bind_int(ord, 2, (int)(lcg() % 20) + 1);
			sqlite3_bind_int(ord, 3, (int)(lcg() % 365));
			sqlite3_step(ord);
			sqlite3_reset(ord);
		}
		if (i % 4 == 0) {
			size_t len = 0;
			for (int w = 0; w < 12; w++)
				len += (size_t)snprintf(text + len, sizeof text - len,
				    "%s ", words[lcg() % NWORDS]);
			sqlite3_bind_text(doc, 1, text, -1, SQLITE_TRANSIENT);
			sqlite3_step(doc);
			sqlite3_reset(doc);
		}
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(ord);
	sqlite3_finalize(doc);
	exec("COMMIT");
}

static void
round_(int r)
{
	char q[512];

	exec("DROP TABLE IF EXISTS item; DROP TABLE IF EXISTS ord;"
	    "DROP TABLE IF EXISTS doc;"
	    "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, price REAL,"
	    " cat INT, tags TEXT);"
	    "CREATE TABLE ord(id INTEGER PRIMARY KEY, item INT, qty INT, day INT);"
	    "CREATE VIRTUAL TABLE doc USING fts5(body);");
	fill(3000);
	exec("CREATE INDEX item_cat ON item(cat, price);"
	    "CREATE INDEX ord_item ON ord(item); ANALYZE;");
	exec("SELECT cat, count(*), sum(price), min(name), max(name)"
	    " FROM item GROUP BY cat ORDER BY 3 DESC LIMIT 10");
	exec("SELECT i.name, sum(o.qty * i.price) AS t FROM ord o"
	    " JOIN item i ON i.id = o.item GROUP BY i.id ORDER BY t DESC LIMIT 20");
	exec("SELECT day, qty, sum(qty) OVER (PARTITION BY day % 7 ORDER BY id"
	    " ROWS BETWEEN 3 PRECEDING AND CURRENT ROW),"
	    " rank() OVER (ORDER BY qty DESC) FROM ord WHERE day < 40");
	exec("WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL"
	    " SELECT n + 1, b, (a + b) % 1000003 FROM fib WHERE n < 2000)"
	    " SELECT sum(a), max(b) FROM fib");
	exec("SELECT upper(substr(name, 2, 5)), replace(name, 'a', 'AA'),"
	    " length(name), instr(name, 'o'), printf('%08.3f', price),"
	    " hex(zeroblob(4)), json_extract(tags, '$[0]'),"
	    " json_array_length(tags) FROM item WHERE name LIKE '%ta%'"
	    " OR name GLOB '*el*' LIMIT 200");
	exec("SELECT json_group_array(json_object('n', name, 'p', price))"
	    " FROM (SELECT name, price FROM item WHERE cat = 5 LIMIT 30)");
	snprintf(q, sizeof q, "SELECT highlight(doc, 0, '[', ']'), bm25(doc)"
	    " FROM doc WHERE doc MATCH '%s OR %s' ORDER BY rank LIMIT 50",
	    words[r % NWORDS], words[(r * 7 + 3) % NWORDS]);
	exec(q);
	exec("SELECT count(*) FROM item WHERE id IN (SELECT item FROM ord"
	    " WHERE qty > 15) AND cat NOT IN (1, 2, 3)");
	exec("SELECT a.cat, b.cat, count(*) FROM item a, item b"
	    " WHERE a.id % 97 = b.id % 89 AND a.id < 600 AND b.id < 600"
	    " GROUP BY 1, 2 HAVING count(*) > 1 ORDER BY 3 DESC, 1, 2 LIMIT 25");
	exec("UPDATE item SET price = price * 1.07, name = name || '+'"
	    " WHERE cat % 5 = 1");
	exec("DELETE FROM ord WHERE day % 11 = 3");
	exec("SELECT total(qty), avg(day), group_concat(DISTINCT qty)"
	    " FROM ord ORDER BY 1");
	exec("SELECT name FROM item ORDER BY price DESC, name COLLATE NOCASE"
	    " LIMIT 100 OFFSET 50");
	exec("SELECT strftime('%Y-%m-%d %H:%M', 1700000000 + day * 86400,"
	    " 'unixepoch'), date(day, 'unixepoch', '+1 month') FROM ord LIMIT 100");
	exec("SELECT quote(name), typeof(price), round(price, 1), abs(-cat),"
	    " coalesce(NULL, cat), iif(cat > 10, 'hi', 'lo') FROM item LIMIT 100");
	exec("CREATE TEMP TABLE t AS SELECT * FROM item WHERE cat < 10;"
	    " CREATE INDEX t_name ON t(name); SELECT count(*), min(name) FROM t;"
	    " DROP TABLE t;");
	exec("PRAGMA integrity_check");
	exec("VACUUM");
}

static void
squeeze(int r)
{
	static const int levels[] = { 1, 3, 5, 2, 7, 4, 9, 6 };
	static char z[ZSTD_COMPRESSBOUND(sizeof rows)], back[sizeof rows];
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	ZSTD_inBuffer in = { rows, nrows, 0 };
	ZSTD_outBuffer out = { z, sizeof z, 0 };
	size_t n, m;

	n = ZSTD_compressCCtx(cc, z, sizeof z, rows, nrows, levels[r % 8]);
	if (ZSTD_isError(n))
		goto bad;
	m = ZSTD_decompressDCtx(dc, back, sizeof back, z, n);
	if (ZSTD_isError(m) || m != nrows || memcmp(back, rows, m) != 0)
		goto bad;
	mix(z, n < 4096 ? n : 4096);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, levels[(r + 3) % 8]);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
	if (ZSTD_isError(ZSTD_compressStream2(cc, &out, &in, ZSTD_e_end)))
		goto bad;
	mix(z, out.pos < 4096 ? out.pos : 4096);
	ZSTD_freeCCtx(cc);
	ZSTD_freeDCtx(dc);
	nrows = 0;
	return;
bad:
	fprintf(stderr, "sqlwork: zstd failed\n");
	exit(1);
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 8;

	if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
		fprintf(stderr, "sqlwork: cannot open a database\n");
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		round_(r);
		squeeze(r);
	}
	sqlite3_close(db);
	printf("sqlwork %d rounds: %016llx\n", rounds, (unsigned long long)sum);
	return 0;
}
