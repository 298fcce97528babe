#!/usr/bin/env node
// 第 13 章的韵表：用 pinyin-pro（corpus/package.json 钉住的版本）给词表里的每个汉字定韵母、十三辙和声调。
//   node rhyme.js NODE_MODULES vocab.json rhyme.tsv
// rhyme.tsv 每行一个字：字、韵母（ü 写成 v）、辙的编号（1–13，见 ZHE；0：定不出）、声调（1–4，轻声 0）。
'use strict';
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
if (args.length !== 3) {
  console.error('用法：node rhyme.js NODE_MODULES vocab.json rhyme.tsv');
  process.exit(2);
}
const [modules, vocabFile, outFile] = args;
let pinyin;
try {
  ({ pinyin } = require(path.resolve(modules, 'pinyin-pro')));
} catch (err) {
  console.error(`rhyme.js：读不了 pinyin-pro（${modules}；npm ci --prefix corpus 装它）：${err.message}`);
  process.exit(1);
}

// 十三辙：韵母 → 辙（编号从 1 起）
const ZHE = [
  ['发花', ['a', 'ia', 'ua']],
  ['梭波', ['o', 'uo', 'e']],
  ['乜斜', ['ie', 've', 'ê']],
  ['一七', ['i', 'v', '-i', 'er']],
  ['姑苏', ['u']],
  ['怀来', ['ai', 'uai']],
  ['灰堆', ['ei', 'ui']],
  ['遥条', ['ao', 'iao']],
  ['油求', ['ou', 'iu']],
  ['言前', ['an', 'ian', 'uan', 'van']],
  ['人辰', ['en', 'in', 'un', 'vn']],
  ['江阳', ['ang', 'iang', 'uang']],
  ['中东', ['eng', 'ing', 'ong', 'iong']],
];
const group = new Map();
ZHE.forEach(([, finals], i) => finals.forEach((f) => group.set(f, i + 1)));

// 不带声调的拼音（ü 写成 v）→ 韵母
function finalOf(py) {
  const y = { yi: 'i', ya: 'ia', ye: 'ie', yao: 'iao', you: 'iu', yan: 'ian', yin: 'in', yang: 'iang',
    ying: 'ing', yong: 'iong', yo: 'io', yu: 'v', yue: 've', yuan: 'van', yun: 'vn',
    wu: 'u', wa: 'ua', wo: 'uo', wai: 'uai', wei: 'ui', wan: 'uan', wen: 'un', wang: 'uang', weng: 'ong' };
  if (py in y) return y[py];
  if (/^(zh|ch|sh|r|z|c|s)i$/.test(py)) return '-i';
  const m = /^(zh|ch|sh|[bpmfdtnlgkhjqxrzcs])?([a-zêv]+)$/.exec(py);
  if (!m) return '';
  let f = m[2];
  if (/^[jqx]$/.test(m[1] || '') && f[0] === 'u') f = 'v' + f.slice(1);
  return f;
}

let vocab;
try {
  vocab = JSON.parse(fs.readFileSync(vocabFile, 'utf8'));
} catch (err) {
  console.error(`rhyme.js：${vocabFile}：${err.message}`);
  process.exit(1);
}
if (!Array.isArray(vocab)) {
  console.error(`rhyme.js：${vocabFile} 不是词表（JSON 数组）`);
  process.exit(1);
}
const lines = [];
let missing = 0;
for (const ch of vocab) {
  if (typeof ch !== 'string' || [...ch].length !== 1 || !/\p{Script=Han}/u.test(ch)) continue;
  const f = finalOf(pinyin(ch, { toneType: 'none', v: true }));
  const tone = Number(pinyin(ch, { pattern: 'num' })) || 0;
  const g = group.get(f) || 0;
  if (g === 0) missing++;
  lines.push(`${ch}\t${f || '-'}\t${g}\t${tone}`);
}
fs.writeFileSync(outFile, lines.join('\n') + '\n');
console.log(`rhyme.js：${lines.length} 个汉字，${missing} 个定不出辙，写进了 ${outFile}`);
