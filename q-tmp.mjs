import { DatabaseSync } from 'node:sqlite'
const db = new DatabaseSync('/tmp/sb10/canopy.db')
const t = (label, sql, ...args) => {
  const s = db.prepare(sql); let r = s.all(...args)
  const times = []
  for (let i = 0; i < 20; i++) { const a = performance.now(); r = s.all(...args); times.push(performance.now() - a) }
  times.sort((a,b)=>a-b); console.log(label, times[10].toFixed(2), times[19].toFixed(2), JSON.stringify(r).slice(0,80))
}
const f = `a.status IN ('published') AND a.kind IN ('article','page')`
t('count all', `SELECT count(*) n FROM (SELECT 1 FROM article_search(?) s JOIN articles a INDEXED BY articles_visibility ON a.id = s.rowid WHERE TRUE AND ${f} LIMIT 501)`, '"water"*')
t('count head', `SELECT count(*) n FROM (SELECT 1 FROM article_search(?) s JOIN articles a INDEXED BY articles_visibility ON a.id = s.rowid WHERE s.rowid IN (SELECT rowid FROM article_search_head(?)) AND ${f} LIMIT 501)`, '"water"*', '"water"*')
t('head fts count', `SELECT count(*) FROM article_search_head(?)`, '"water"*')
t('head rank', `SELECT r.id FROM (SELECT rowid AS id, bm25(article_search_head, 10.0, 4.0, 4.0) AS rank FROM article_search_head WHERE article_search_head MATCH ?) r JOIN article_search(?) s ON s.rowid = r.id JOIN articles a INDEXED BY articles_visibility ON a.id = r.id WHERE ${f} ORDER BY r.rank, r.id DESC LIMIT 10`, '"water"*', '"water"*')
t('head rank nojoin', `SELECT r.id FROM (SELECT rowid AS id, bm25(article_search_head, 10.0, 4.0, 4.0) AS rank FROM article_search_head WHERE article_search_head MATCH ?) r JOIN articles a INDEXED BY articles_visibility ON a.id = r.id WHERE ${f} ORDER BY r.rank, r.id DESC LIMIT 10`, '"water"*')
t('body newest', `SELECT s.rowid FROM article_search(?) s JOIN articles a INDEXED BY articles_visibility ON a.id = s.rowid WHERE NOT s.rowid IN (SELECT rowid FROM article_search_head(?)) AND ${f} ORDER BY s.rowid DESC LIMIT 10`, '"water"*', '"water"*')
t('fetch', `SELECT a.id, substr(a.body_markdown,1,20000) FROM articles a WHERE a.id IN (1,2,3,4,5,6,7,8,9,10)`)
