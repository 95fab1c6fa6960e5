/* crkb pack search: BM25 over the index written at export time (data/search-<lang>.js).
   English words are looked up in the index's own word → stem table (inflections and typos
   resolved against it); Chinese is segmented against the index's own vocabulary. */
(function () {
  "use strict";
  var K1 = 1.2, B = 0.75, LIMIT = 20, POOL = 30, SOFT = 0.3;
  var STEPS = [20, 50, 100];  /* the hits a page lists, and after "More hits" (as the server's) */
  var MAX_SOUNDED = 8, MAX_KEYS = 64, SLIP = 0.01;  /* a slip: a piece no rule holds read by its sound */
  var store = (window.CRKB_SEARCH = window.CRKB_SEARCH || {});
  var ready = {};
  var CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
  /* a word, a power and toughness whole ("+1/+1"), or a rule number whole ("903.10"), as
     crkb.search.analysis.WORD_PATTERN */
  var WORD = /(?<![a-z0-9\/.])[+-]?(?:\d+|x)\/[+-]?(?:\d+|x)(?![a-z0-9\/])|\d+\.\d+[a-z]?(?![a-z0-9])|[a-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f]+/g;
  var WORD_SPLIT = new RegExp("(" + WORD.source + ")", "i");  /* the same, kept, any case */
  /* lowercase, accents folded (Dandân → dandan), as crkb.search.analysis.fold */
  function lower(s) {
    return s.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "")
      .replace(/\u00e6/g, "ae").replace(/\u0153/g, "oe");
  }

  function load(lang, done) {
    if (store[lang]) return done(prepare(store[lang]));
    var main = document.getElementById("search");
    var src = main && main.getAttribute("data-" + lang);
    if (!src) return done(null);
    var s = document.createElement("script");
    s.src = src;
    s.onload = function () { done(store[lang] ? prepare(store[lang]) : null); };
    s.onerror = function () { done(null); };
    document.head.appendChild(s);
  }

  function prepare(ix) {
    if (ix.ready) return ix;
    ix.byNumber = {};
    ix.docs.forEach(function (d, i) { ix.byNumber[d[0]] = i; });
    ix.avg = mean(ix.len);
    if (ix.bilen) ix.biavg = mean(ix.bilen);
    /* the players' questions of the rules that have them (crkb.search.asked) */
    if (ix.askedlen) ix.askedavg = mean(ix.askedlen.filter(function (x) { return x > 0; })) || 1;
    ix.stopSet = set(ix.stop);
    ix.englishSet = set(ix.english || []);
    var ask = ix.ask || {};
    ix.fillerSet = set(ask.filler);
    ix.softSet = set(ask.soft);
    ix.outcomeSet = set(ask.outcome);
    ix.quantitySet = set(ask.quantity);
    ix.irregular = ask.irregular || {};
    ix.soundOf = {};
    ix.everydaySet = set(ix.sounds && ix.sounds.everyday);
    ix.dieRolled = set(ask.dieRolled);
    /* players' words → the rules' words (crkb.search.players): English phrases, Chinese patterns */
    ix.playersEn = ix.lang === "en" ? ask.players || {} : {};
    ix.playersLongest = Object.keys(ix.playersEn).reduce(function (n, k) {
      return Math.max(n, k.split(" ").length);
    }, 0);
    ix.playersZh = [];
    if (ix.lang === "zh") (ask.players || []).forEach(function (p) {
      try { ix.playersZh.push([new RegExp(p[0], "gi"), p[1]]); } catch (e) { /* not JS syntax */ }
    });
    ix.signals = {};
    for (var name in ask.signals || {}) {
      var sg = ask.signals[name];
      try { ix.signals[name] = [new RegExp(sg[0], sg[1]), sg[2]]; } catch (e) { /* not JS syntax */ }
    }
    if (ix.lang === "zh") {
      ix.total = 0;
      ix.maxLen = 1;
      for (var t in ix.post) {
        ix.total += ix.post[t].length / 2;
        if (t.length > ix.maxLen) ix.maxLen = Math.min(t.length, 12);
      }
    }
    ix.ready = true;
    return ix;
  }

  function set(xs) {
    var out = {};
    (xs || []).forEach(function (w) { out[w] = 1; });
    return out;
  }

  /* a candidate's own text: a statement for a question, a number for "how many", a condition
     for "what happens if" (the server's signals, shipped as patterns) */
  function signals(ix, text, asked) {
    var f = 1;
    [["states", asked.question], ["counts", asked.wants], ["outcome", asked.outcome]].forEach(function (x) {
      var sg = ix.signals[x[0]];
      if (x[1] && sg && sg[0].test(text)) f *= 1 + sg[1];
    });
    return f;
  }

  /* (covered, width) of the narrowest window holding every term that occurs: spans per term */
  function span(occ) {
    var present = occ.filter(function (o) { return o.length; }), ev = [];
    present.forEach(function (o, i) { o.slice(0, 8).forEach(function (se) { ev.push([se[0], se[1], i]); }); });
    ev.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });
    var count = {}, have = 0, left = 0, best = null;
    for (var r = 0; r < ev.length; r++) {
      if (!count[ev[r][2]]) { count[ev[r][2]] = 0; have++; }
      count[ev[r][2]]++;
      while (have === present.length) {
        var end = 0, longest = {}, covered = 0;
        for (var j = left; j <= r; j++) {
          end = Math.max(end, ev[j][1]);
          longest[ev[j][2]] = Math.max(longest[ev[j][2]] || 0, ev[j][1] - ev[j][0]);
        }
        for (var t in longest) covered += longest[t];
        var width = end - ev[left][0];
        covered = Math.min(covered, width);
        if (!best || width < best[1] || (width === best[1] && covered > best[0])) best = [covered, width];
        if (!--count[ev[left][2]]) { delete count[ev[left][2]]; have--; }
        left++;
      }
    }
    return best;
  }

  /* 1 + PROXIMITY × closeness × share, when two or more content words occur in the text */
  function proximity(ix, text, near) {
    var p = (ix.ask && ix.ask.factors || {}).proximity;
    if (!p || near.length < 2) return 1;
    var occ;
    if (ix.lang === "en") {
      var seq = (lower(text).match(WORD) || []).map(function (w) {
        return ix.forms[w] || w;
      });
      occ = near.map(function (t) {
        var out = [];
        seq.forEach(function (w, i) { if (w === t) out.push([i, i + 1]); });
        return out;
      });
    } else {
      occ = near.map(function (t) {
        var out = [], at = text.indexOf(t);
        while (at >= 0 && t) { out.push([at, at + t.length]); at = text.indexOf(t, at + t.length); }
        return out;
      });
    }
    var present = occ.filter(function (o) { return o.length; }).length;
    var got = present >= 2 ? span(occ) : null;
    return got ? 1 + p * Math.min(1, got[0] / Math.max(got[1], 1)) * present / near.length : 1;
  }

  /* 1 + SUBJECT × the share of the content words among an English text's first words */
  function subject(ix, text, near) {
    var fs = ix.ask && ix.ask.factors || {};
    if (!fs.subject || ix.lang !== "en" || !near.length) return 1;
    var head = (lower(text).match(WORD) || [])
      .slice(0, fs.opening || 6).map(function (w) { return ix.forms[w] || w; });
    var got = near.filter(function (t) { return head.indexOf(t) >= 0; }).length;
    return weighed(ix, "subject", 1 + fs.subject * got / near.length);
  }

  /* for "can …?": a modal word ("can't", 不能) just before a content word of the question */
  function modal(ix, text, near) {
    var fs = ix.ask && ix.ask.factors || {};
    if (!fs.modal || !near.length) return 1;
    if (ix.lang === "en") {
      var seq = (lower(text).match(WORD) || []).map(function (w) {
        return ix.forms[w] || w;
      });
      for (var i = 0; i < seq.length; i++) {
        if (/^(can|cannot|may|mai|must)$/.test(seq[i]) &&
            seq.slice(i + 1, i + 4).some(function (w) { return near.indexOf(w) >= 0; })) {
          return weighed(ix, "modal", 1 + fs.modal);
        }
      }
      return 1;
    }
    var re = /(?:不能|能够|能|可以|不得|必须)/g, m;
    while ((m = re.exec(text))) {
      var after = text.slice(re.lastIndex, re.lastIndex + 6);
      if (near.some(function (t) { return t && after.slice(0, t.length + 3).indexOf(t) >= 0; })) {
        return weighed(ix, "modal", 1 + fs.modal);
      }
    }
    return 1;
  }

  /* a keyword's or a variant's rule, for a question that does not name the keyword */
  function specific(ix, number, q, asked) {
    var f = (ix.ask && ix.ask.factors || {}).specific;
    if (!f || !asked.question || !/^(701|702)\.|^[89]/.test(number)) return 1;
    var title = null;  /* the nearest titled rule above, as the server reads it */
    for (var p = parentOf(number); p && !title; p = parentOf(p)) {
      title = p in ix.byNumber ? ix.docs[ix.byNumber[p]][1] : null;
    }
    if (!title) return 1;
    if (ix.lang === "zh") return q.indexOf(title) >= 0 ? 1 : f;
    var want = asked.stems, named = (lower(title).match(WORD) || []).some(function (w) {
      return !ix.stopSet[w] && want.indexOf(ix.forms[w] || w) >= 0;
    });
    return named ? 1 : f;
  }

  /* a signal's factor raised to its learned weight (crkb.search.weights) */
  function weighed(ix, name, f) {
    var w = (ix.ask && ix.ask.weights || {})[name];
    return w === undefined ? 1 : Math.pow(f, w);
  }

  /* a rule others refer to states the thing; a variant's rule, variant not named, falls behind */
  function prior(ix, number, q, asked) {
    var fs = ix.ask && ix.ask.factors || {}, f = 1, c = (ix.cited || {})[number] || 0;
    if (fs.cited) f *= weighed(ix, "cited", 1 + fs.cited * Math.min(Math.log2(1 + c), 4));
    if (fs.specific && /^[89]/.test(number)) {
      f *= weighed(ix, "variant", specific(ix, number, q, { question: true, stems: asked.stems }));
    }
    return f;
  }

  /* a candidate the leading candidates refer to, or inside a section they refer to ("See rule 704") */
  function pointed(ix, ranked) {
    var fs = ix.ask && ix.ask.factors || {};
    if (!fs.pointed) return;
    var lead = ranked.slice(0, fs.pointers || 10).map(function (r) {
      var refs = {}, re = /(?:rules?|规则)\s*(\d{3}(?:\.\d+[a-z]?)?)/g, m;
      while ((m = re.exec(ix.docs[r[0]][2]))) refs[m[1]] = 1;
      return [r[0], refs];
    });
    ranked.forEach(function (r) {
      var n = ix.docs[r[0]][0], mine = [], by = 0;
      /* its own number, and the sections it lies in: "see rule 702.7" names 702.7, not 702.7c
         (crkb.search.ranking.named_by) */
      for (var p = n; p && p.length >= 3; p = parentOf(p)) {
        if (p === n || p.indexOf(".") < 0) mine.push(p);
      }
      lead.forEach(function (l) {
        if (l[0] !== r[0] && mine.some(function (x) { return l[1][x]; })) by++;
      });
      if (by) r[1] *= weighed(ix, "pointed", 1 + fs.pointed * Math.min(by, 3));
    });
  }

  function parentOf(n) {
    if (/[a-z]$/.test(n)) return n.replace(/[a-z]+$/, "");
    if (n.indexOf(".") >= 0) return n.split(".")[0];
    return null;
  }

  /* question words are dropped (unless nothing else is left), softer words count a little */
  function weigh(ix, words) {
    var kept = words.filter(function (w) { return !ix.fillerSet[w]; });
    return (kept.length ? kept : words).map(function (w) { return [w, ix.softSet[w] ? SOFT : 1]; });
  }

  function mean(xs) {
    var s = 0;
    for (var i = 0; i < xs.length; i++) s += xs[i];
    return xs.length ? s / xs.length : 1;
  }

  function df(ix, t) { var p = ix.post[t]; return p ? p.length / 2 : 0; }

  /* full-width letters, digits and punctuation as ASCII, 。 between digits as a full stop:
     `７０２．１９ｂ` → `702.19b` (as crkb.numbers.fold_width) */
  function foldWidth(q) {
    return q.replace(/[\uff01-\uff5e]/g, function (c) {
      return String.fromCharCode(c.charCodeAt(0) - 0xfee0);
    }).replace(/\u3000/g, " ").replace(/([0-9])。(?=[0-9])/g, "$1.");
  }

  /* `rule 704.5j`, `规则704.5j`, `901.3a.`, `第八章`, `section 8`, `７０２．１９ｂ` → the number,
     else null (as crkb.numbers.normalise) */
  function wholeNumber(q) {
    var s = foldWidth(q).trim().toLowerCase().replace(/[。.,，]+$/, "")
      .replace(/^第\s*([一二三四五六七八九])\s*章$/, function (_m, d) {
        return String("一二三四五六七八九".indexOf(d) + 1);
      })
      .replace(/^(?:rules?|cr|规则|第)\s*/, "")
      .replace(/^(?:section\s*(?=\d{1,3}$)|chapter\s*(?=\d$))/, "").replace(/章$/, "");
    return /^\d{1,3}(?:\.\d+[a-z]{0,2})?$/.test(s) ? s : null;
  }

  function numbersIn(q) {
    var out = [], re = /(?:^|[^\w.])(\d{3}\.\d{1,3}[a-z]{0,2})(?![\w.]*\d)/gi, m;
    var s = foldWidth(q).replace(/规则|第/g, " ");
    while ((m = re.exec(s))) if (out.indexOf(m[1].toLowerCase()) < 0) out.push(m[1].toLowerCase());
    return out;
  }

  function singular(w) {
    if (w.length > 4 && /ies$/.test(w)) return w.slice(0, -3) + "y";
    if (w.length > 3 && /s$/.test(w) && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
    return w;
  }

  /* optimal-string-alignment distance, capped */
  function distance(a, b, cap) {
    if (Math.abs(a.length - b.length) >= cap) return cap;
    var prev2 = [], prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var low = i;
      for (j = 1; j <= b.length; j++) {
        var c = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) c = Math.min(c, prev2[j - 2] + 1);
        cur.push(c);
        if (c < low) low = c;
      }
      if (low >= cap) return cap;
      prev2 = prev; prev = cur;
    }
    return Math.min(prev[b.length], cap);
  }

  /* a query word → [index stem, corrected word or null] */
  function stemOf(ix, w) {
    if (ix.forms[w]) return [ix.forms[w], null];
    /* a number (702.190, 9z) is never a slip for another: the server corrects none either */
    if (/\d/.test(w) || w.length < 4) return [w, null];
    var tries = [w.replace(/ies$/, "y"), w.replace(/es$/, ""), w.replace(/s$/, ""),
      w.replace(/ed$/, ""), w.replace(/ed$/, "e"), w.replace(/ing$/, ""), w.replace(/ing$/, "e"),
      w.replace(/ly$/, ""), w.replace(/(.)\1(ed|ing)$/, "$1")];
    for (var i = 0; i < tries.length; i++) if (tries[i] !== w && ix.forms[tries[i]]) return [ix.forms[tries[i]], null];
    if (ix.englishSet[w]) return [w, null];  /* an everyday word, no misspelling ("wear") */
    for (i = 0; i < tries.length; i++) if (tries[i] !== w && ix.englishSet[tries[i]]) return [w, null];  /* a form of one ("ramping") */
    var best = null, bd = 3, bf = -1;
    for (var f in ix.forms) {
      if (Math.abs(f.length - w.length) > 2 || f.length < 3) continue;
      var d = distance(w, f, 3);
      if (d > 2) continue;
      var fr = df(ix, ix.forms[f]);
      if (d < bd || (d === bd && fr > bf)) { best = f; bd = d; bf = fr; }
    }
    return best ? [ix.forms[best], best] : [w, null];
  }

  /* Chinese: most probable segmentation over the index vocabulary (document frequencies); a
     piece no rule holds that sounds like a game term (a slip of pinyin input: 避邪 for 辟邪) is
     that term, noted in `slips` (typed → term) */
  function segment(ix, text, slips) {
    var out = [], parts = text.toLowerCase().match(/[\u3400-\u9fff\uf900-\ufaff]+|[a-z0-9]+/g) || [];
    var logTotal = Math.log(ix.total + 1), like = {};
    parts.forEach(function (run) {
      if (!CJK.test(run)) { out.push(run); return; }
      var n = run.length, best = [0], back = [0], put = [null];
      for (var i = 1; i <= n; i++) {
        best[i] = -Infinity;
        for (var j = Math.max(0, i - Math.max(ix.maxLen, MAX_SOUNDED)); j < i; j++) {
          var w = run.slice(j, i), f = df(ix, w), lp, term = null;
          if (f) lp = Math.log(f + 1) - logTotal;
          else if (i - j === 1) lp = Math.log(0.5) - logTotal;
          else if (i - j <= MAX_SOUNDED && ix.sounds) {
            if (!(w in like)) like[w] = soundsLike(ix, w);
            term = like[w];
            if (!term) continue;
            lp = Math.log(df(ix, term) + 1) - logTotal + Math.log(SLIP);
          } else continue;
          if (best[j] + lp > best[i]) { best[i] = best[j] + lp; back[i] = j; put[i] = term; }
        }
      }
      var words = [];
      for (var k = n; k > 0; k = back[k]) {
        var typed = run.slice(back[k], k);
        if (put[k] && slips) slips[typed] = put[k];
        words.unshift(put[k] || typed);
      }
      out.push.apply(out, words);
    });
    return out;
  }

  /* the syllables a character can be read as, its usual one first ([syllable, usual]) */
  function readingsOf(ix, c) {
    var got = ix.soundOf[c];
    if (got) return got;
    got = [];
    for (var syl in ix.sounds.readings) {
      var chars = ix.sounds.readings[syl], at = chars.indexOf(c);
      if (at >= 0) got.push([syl, chars.charAt(at + 1) === "*"]);
    }
    got.sort(function (a, b) { return b[1] - a[1]; });
    return (ix.soundOf[c] = got);
  }

  /* the game's word that `text` sounds like (crkb.search.sounds.Sounds.like): read as usual
     first, else the most used; an asking word typed is meant, never the slip */
  function soundsLike(ix, text) {
    if (ix.everydaySet[text]) return null;  /* 其实 is "in fact", not a slip for 起事 */
    var per = text.split("").map(function (c) { return readingsOf(ix, c); });
    if (per.some(function (r) { return !r.length; })) return null;
    var best = null, keys = [[[], 0, []]];
    per.forEach(function (rs) {
      var next = [];
      keys.forEach(function (k) {
        rs.forEach(function (r) {
          if (next.length < MAX_KEYS) next.push([k[0].concat(r[0]), k[1] + (r[1] ? 0 : 1), k[2].concat(r[1])]);
        });
      });
      keys = next;
    });
    keys.forEach(function (k) {
      (ix.sounds.words[k[0].join(" ")] || []).forEach(function (wn) {
        var w = wn[0], score = df(ix, w);
        /* a wrong character matches by its usual reading (one an input method lists) */
        if (w === text || k[2].some(function (usual, i) { return !usual && text.charAt(i) !== w.charAt(i); })) return;
        if (!best || k[1] < best[1] || (k[1] === best[1] && score > best[2])) best = [w, k[1], score];
      });
    });
    if (!best) return null;
    for (var i = 0; i < text.length; i++) {
      var c = text.charAt(i);
      if (c !== best[0].charAt(i) && (ix.fillerSet[c] || ix.softSet[c])) return null;
    }
    return best[0];
  }

  function bigrams(text) {
    var out = [], runs = text.match(/[\u3400-\u9fff\uf900-\ufaff]+/g) || [];
    runs.forEach(function (r) {
      if (r.length === 1) out.push(r);
      for (var i = 0; i + 1 < r.length; i++) out.push(r.slice(i, i + 2));
    });
    return out;
  }

  /* terms: [term, weight] pairs; returns the summed weight of the terms the index knows */
  function bm25(ix, post, lens, avg, terms, scores, matched) {
    var n = ix.docs.length, total = 0;
    terms.forEach(function (tw) {
      var p = post[tw[0]];
      if (!p) return;
      var idf = tw[1] * Math.log(1 + (n - p.length / 2 + 0.5) / (p.length / 2 + 0.5));
      total += idf;
      for (var i = 0; i < p.length; i += 2) {
        var d = p[i], tf = p[i + 1];
        scores[d] = (scores[d] || 0) + idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lens[d] / avg));
        if (matched) matched[d] = (matched[d] || 0) + idf;
      }
    });
    return total;
  }

  function phraseEn(ix, text, phrase) {
    var seq = (lower(text).match(WORD) || []).map(function (w) {
      return ix.forms[w] || w;
    });
    var k = phrase.length;
    for (var i = 0; i < seq.length; i++) {
      if (seq[i] !== phrase[0]) continue;
      var j = i, ok = true;
      for (var p = 1; p < k; p++) {
        var win = seq.slice(j + 1, j + 4), at = win.indexOf(phrase[p]);
        if (at < 0) { ok = false; break; }
        j = j + 1 + at;
      }
      if (ok && j - i <= 2 * k) return 1.6;
    }
    return 1;
  }

  /* query words with players' words and phrases put in the rules' words (crkb.search.players) */
  function rulesWordsEn(ix, words) {
    var out = [], i = 0;
    while (i < words.length) {
      var n = Math.min(ix.playersLongest, words.length - i), got = null;
      for (; n > 0; n--) {
        got = ix.playersEn[words.slice(i, i + n).join(" ")];
        if (got) break;
      }
      if (got) {
        /* a word the query holds already is not added twice ("bounced to my hand") */
        var held = words.slice(0, i).concat(words.slice(i + n));
        got.forEach(function (w, k) { if (k === 0 || held.indexOf(w) < 0) out.push(w); });
        i += n;
      } else { out.push(words[i]); i += 1; }
    }
    return out;
  }

  /* the query → {numbers: the best `limit` (LIMIT) rule numbers, total: rules met, fixed:
     corrected query or null, marks: the words to mark} */
  function search(ix, raw, limit) {
    limit = limit || LIMIT;
    var q = raw.replace(/\s+/g, " ").trim().slice(0, 200), pinned = [], fixed = null;
    if (!q) return { numbers: [], fixed: null, marks: [] };
    if (ix.lang === "zh") {
      q = q.split("").map(function (c) { return ix.t2s[c] || c; }).join("");
      ix.playersZh.forEach(function (p) { q = q.replace(p[0], p[1]); });
    }
    var whole = wholeNumber(q);
    if (whole && whole in ix.byNumber) {
      pinned.push(whole);
      ix.docs.forEach(function (d) {
        if (d[0].indexOf(whole) === 0 && d[0] !== whole && /^[.a-z]/.test(d[0].slice(whole.length))) {
          var rest = d[0].slice(whole.length);
          if (/^[a-z]+$/.test(rest) || (/^\.\d+$/.test(rest))) pinned.push(d[0]);
        }
      });
      return { numbers: pinned, fixed: null, marks: [] };
    }
    numbersIn(q).forEach(function (n) { if (n in ix.byNumber) pinned.push(n); });
    var terms, key, extra = [], phrase = [], isEn = ix.lang === "en";
    var asked = { question: false, wants: false, outcome: false, can: false };
    var askCan = ix.ask && ix.ask.can || [];
    /* 能 inside a noun (异能, an ability) does not ask what can be done */
    var modalText = ix.ask && ix.ask.notCan ? q.replace(new RegExp(ix.ask.notCan, "g"), "") : q;
    asked.can = askCan.some(function (w) {
      return isEn ? q.toLowerCase().split(/\s+/)[0] === w : modalText.indexOf(w) >= 0;
    });
    if (isEn) {
      var words = rulesWordsEn(ix, lower(q).match(WORD) || []);
      for (var i = 0; i + 1 < words.length; i++) {
        if (ix.quantitySet[words[i] + " " + words[i + 1]]) asked.wants = true;
      }
      asked.question = words.some(function (w) { return ix.fillerSet[w]; });
      asked.outcome = words.some(function (w) { return ix.outcomeSet[w]; }) ||
        words.slice(0, 3).indexOf("if") >= 0;
      if (asked.wants) words = words.filter(function (w) { return w !== "many" && w !== "much"; });
      var corrected = words.slice(), stems = {};
      words.forEach(function (w, i) {
        if (ix.stopSet[w] || ix.fillerSet[w]) return;
        var base = ix.irregular[w] || w;
        /* "won't die": the verb, as the rules say "dies"; "roll a die" is a die rolled */
        if (w === "die" && !ix.dieRolled[words[i - 1]] && !ix.dieRolled[words[i + 1]]) base = "dies";
        var r = stemOf(ix, base);
        if (r[1]) corrected[i] = r[1];
        stems[corrected[i]] = r[0];
      });
      if (corrected.join(" ") !== words.join(" ")) fixed = corrected.join(" ");
      var content = corrected.filter(function (w) { return !ix.stopSet[w]; });
      terms = weigh(ix, uniq(content)).map(function (tw) {
        return [stems[tw[0]] || stemOf(ix, tw[0])[0], tw[1]];
      });
      key = content.map(singular).join(" ");
      var contentKey = content.filter(function (w) {
        return !ix.fillerSet[w] && !(asked.question && ix.softSet[w]);
      }).map(singular).join(" ");
      if ((asked.question || (!ix.pins[key] && !ix.sections[key])) && contentKey) key = contentKey;
      var stemList = terms.map(function (tw) { return tw[0]; });
      if (stemList.length > 1) phrase = stemList;
    } else {
      key = q.replace(/[\s\p{P}\p{S}_]+/gu, "").toLowerCase();
      var slips = {};
      var tokens = segment(ix, q, slips).filter(function (t) {
        var count = ix.quantitySet[t] || (t.length === 2 && t[0] === "几" && ix.quantitySet["几"]);
        if (count) asked.wants = asked.question = true;
        return !count;
      });
      for (var slip in slips) { q = q.split(slip).join(slips[slip]); fixed = q; }
      if (fixed) key = q.replace(/[\s\p{P}\p{S}_]+/gu, "").toLowerCase();
      if (tokens.some(function (t) { return ix.fillerSet[t]; })) asked.question = true;
      asked.outcome = tokens.some(function (t) { return ix.outcomeSet[t]; });
      if (asked.question) {
        key = tokens.filter(function (t) { return !ix.fillerSet[t] && !ix.softSet[t]; }).join("") || key;
      }
      terms = weigh(ix, uniq(tokens));
      var runs = q.match(/[\u3400-\u9fff]{2,}/g) || [];
      extra = uniq(bigrams(runs.join(" "))).map(function (g) { return [g, 1]; });
      if (terms.length > 1 || !terms.length) phrase = runs;
    }
    var factors = ix.ask && ix.ask.factors || {}, favoured = [];
    (ix.pins[key] || []).forEach(function (n) {
      if (!(n in ix.byNumber)) return;
      if (asked.question && factors.favoured) favoured.push(n);  /* the answer is among its rules */
      else if (pinned.indexOf(n) < 0) pinned.push(n);
    });
    var sections = ix.sections[key] || [];
    var near = terms.filter(function (tw) { return tw[1] === 1; }).map(function (tw) { return tw[0]; });
    asked.stems = terms.map(function (tw) { return tw[0]; });
    var scores = {}, matched = {};
    var total = bm25(ix, ix.post, ix.len, ix.avg, terms, scores, matched);
    if (extra.length && ix.bi) bm25(ix, ix.bi, ix.bilen, ix.biavg, extra, scores, null);
    /* a rule players ask about in the query's words is a candidate, and gains by how well */
    var ask = {}, askTop = 0;
    if (ix.asked && factors.asked) {
      bm25(ix, ix.asked, ix.askedlen, ix.askedavg, terms, ask, null);
      for (var a in ask) {
        if (ask[a] > askTop) askTop = ask[a];
        scores[a] = (scores[a] || 0) + (factors.askedPool || 0) * ask[a];
      }
    }
    var ranked = [];
    for (var d in scores) {
      var cover = total ? (matched[d] || 0) / total : 0;
      var s = scores[d] * (0.2 + 0.8 * Math.pow(cover, 3));
      if (sections.length && sections.indexOf(ix.docs[d][0].split(".")[0]) >= 0) s *= 3;
      if (favoured.length && favoured.some(function (f) { return within(ix.docs[d][0], f); })) s *= factors.favoured;
      ranked.push([+d, s]);
    }
    ranked.sort(function (a, b) { return b[1] - a[1]; });
    ranked = ranked.slice(0, Math.max(POOL, limit + pinned.length));
    ranked.forEach(function (r) {
      var text = ix.docs[r[0]][2];
      if (phrase.length) {
        r[1] *= isEn ? phraseEn(ix, text, phrase)
          : (phrase.some(function (p) { return text.indexOf(p) >= 0; }) ? 1.6 : 1);
      }
      r[1] *= signals(ix, text, asked) * proximity(ix, text, near);
      if (askTop && ask[r[0]]) r[1] *= weighed(ix, "asked", 1 + factors.asked * ask[r[0]] / askTop);
      r[1] *= specific(ix, ix.docs[r[0]][0], q, asked);
      var heading = (ix.ask && ix.ask.factors || {}).heading;
      if (heading && asked.question && text === ix.docs[r[0]][1]) r[1] *= heading;
      r[1] *= prior(ix, ix.docs[r[0]][0], q, asked);
      r[1] *= subject(ix, text, near);
      if (asked.can) r[1] *= modal(ix, text, near);
    });
    ranked.sort(function (a, b) { return b[1] - a[1]; });
    pointed(ix, ranked);
    ranked.sort(function (a, b) { return b[1] - a[1]; });
    var out = pinned.slice();
    ranked.forEach(function (r) { var n = ix.docs[r[0]][0]; if (out.indexOf(n) < 0) out.push(n); });
    /* how many rules the words met at all: the page lists the best `limit` of them */
    var met = pinned.filter(function (n) { return !(ix.byNumber[n] in scores); }).length;
    for (d in scores) met++;
    return { numbers: out.slice(0, limit), total: met, fixed: fixed,
      marks: terms.map(function (tw) { return tw[0]; }) };
  }

  /* a page of `limit` hits: those of the shorter pages it grew from ("More hits") in their
     order, then the rest of the longer ranking, which reads more candidates and may order its
     head otherwise: the hits a reader has seen stay where they were */
  function listed(ix, q, limit) {
    var steps = STEPS.filter(function (n) { return n < limit; }).concat([limit]), first = null, numbers = [];
    steps.forEach(function (n) {
      var got = search(ix, q, n);
      first = first || got;
      got.numbers.forEach(function (x) { if (numbers.length < n && numbers.indexOf(x) < 0) numbers.push(x); });
    });
    return { numbers: numbers, total: first.total, fixed: first.fixed, marks: first.marks };
  }

  /* a hit's text escaped, the query's words marked (English by stem, Chinese by word) */
  function marked(ix, text, marks) {
    var want = set(marks);
    if (ix.lang === "en") {
      return text.split(WORD_SPLIT).map(function (part, i) {
        var w = lower(part);
        return i % 2 && want[ix.forms[w] || w] ? "<mark>" + esc(part) + "</mark>" : esc(part);
      }).join("");
    }
    var words = marks.filter(function (w) { return w.length > 1; })
      .sort(function (a, b) { return b.length - a.length; })
      .map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); });
    if (!words.length) return esc(text);
    return text.split(new RegExp("(" + words.join("|") + ")")).map(function (part, i) {
      return i % 2 ? "<mark>" + esc(part) + "</mark>" : esc(part);
    }).join("");
  }

  /* the number itself, a lettered subrule of it, or a rule under a section */
  function within(n, f) {
    return n === f || n.indexOf(f + ".") === 0 || (n.indexOf(f) === 0 && /^[a-z]+$/.test(n.slice(f.length)));
  }

  function uniq(xs) { return xs.filter(function (x, i) { return x && xs.indexOf(x) === i; }); }

  function href(lang, number) {
    var sec = number.split(".")[0];
    if (sec.length < 3) return "index.html#ch-" + sec;
    return lang + "/" + sec + ".html" + (number === sec ? "" : "#" + number);
  }

  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  function render(ix, result, ms) {
    var list = document.getElementById("hits"), html = [];
    result.numbers.forEach(function (n) {
      var d = ix.docs[ix.byNumber[n]], text = d[2].length > 240 ? d[2].slice(0, 239) + "…" : d[2];
      html.push('<li class="hit" data-rule="' + esc(n) + '" lang="' + (ix.lang === "zh" ? "zh-Hans" : "en") +
        '"><a class="num" href="' + esc(href(ix.lang, n)) + '">' + esc(n) + "</a> " +
        (d[1] ? "<b>" + esc(d[1]) + "</b> " : "") + '<span class="x">' +
        marked(ix, text, result.marks || []) + "</span></li>");
    });
    list.innerHTML = html.join("");
    var status = document.getElementById("status");
    status.textContent = (result.fixed ? "Showing results for “" + result.fixed + "”. " : "") +
      (result.numbers.length < (result.total || 0) ? "The best " + result.numbers.length + " of " + result.total + " hits" :
        result.numbers.length ? result.numbers.length + (result.numbers.length === 1 ? " hit" : " hits") : "No hits") +
      " · " + ix.lang + " " + ix.version + " · " + ms.toFixed(0) + " ms";
    var more = document.getElementById("more"), shown = result.numbers.length;
    var next = STEPS.filter(function (n) { return n > shown; })[0];
    if (!more || shown >= (result.total || 0)) return;
    if (next) {
      var params = new URLSearchParams(location.search);
      params.set("n", next);
      more.innerHTML = '<a href="search.html?' + esc(params.toString()) + '">More hits</a>';
    } else more.textContent = "Only the best " + shown + " are listed: add words to narrow the search.";
  }

  function run() {
    var params = new URLSearchParams(location.search);
    var q = params.get("q") || "", lang = params.get("lang") || "auto";
    document.getElementById("q").value = q;
    document.getElementById("lang").value = /^(en|zh|auto)$/.test(lang) ? lang : "auto";
    if (!q.trim()) { document.body.dataset.done = "1"; return; }
    if (lang !== "en" && lang !== "zh") lang = CJK.test(q) || /^\s*(规则|第)/.test(q) ? "zh" : "en";
    var t0 = performance.now();
    load(lang, function (ix) {
      if (!ix) {
        document.getElementById("status").textContent = "This pack has no " + lang + " index.";
        document.body.dataset.done = "1";
        return;
      }
      /* a rule number is listed as any query is (the rule first, then its own rules), its
         rule one click away: the page never leaves for the rule by itself */
      var n = parseInt(params.get("n"), 10), limit = n >= 1 && n <= STEPS[STEPS.length - 1] ? n : LIMIT;
      var result = listed(ix, q, limit);
      render(ix, result, performance.now() - t0);
      document.body.dataset.done = "1";
    });
  }

  window.crkbSearch = { search: search, segment: segment, load: load };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
