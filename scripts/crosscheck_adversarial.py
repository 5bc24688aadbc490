# An implementation of fp's adversarial baseline (Louppe et al.'s schedule as docs/method.md §6 fixes it) in
# numpy, written from the specification alone and sharing no code with fp, to tell properties of
# the protocol from properties of fp's implementation. COMPAS (docs/method.md §1.2), 50/50 splits stratified
# by y, the 12→4→4→4→1 classifier with dropout 0.2, the 1→32→32→32→32→1 adversary, 2 + 5
# pre-training epochs, 200 rounds, Adam (lr 1e-3), batch 150.
#
#   python3 scripts/crosscheck_adversarial.py DATA.csv SPLITS [BETAS]
#
# DATA.csv is compas-scores-two-years.csv; BETAS a comma-separated list (default: the 14 values
# of log:15 below 1). Environment: H (hidden width, 4), DROP (dropout, 0.2), PRE (classifier
# pre-training epochs, 2), BATCH (150), STD (0 leaves the features unstandardized; 1), INIT
# (pytorch: U(±1/√fan_in) weights and biases, as docs/method.md §2; glorot: Keras's default, Glorot-uniform
# weights and zero biases; zerobias: pytorch weights, zero biases), ROUND (step: a round trains the
# classifier one step on one mini-batch, as docs/method.md §6; epoch: one epoch of mini-batches), TESTDROP (1
# scores the test split with dropout on, as code that never switches to evaluation mode does; 0). Prints one
# line per candidate (split, β, test risk, single class) and a summary. Needs numpy.
import csv, os, sys, numpy as np
H=int(os.environ.get('H','4')); DROP=float(os.environ.get('DROP','0.2')); PRE=int(os.environ.get('PRE','2')); BATCH=int(os.environ.get('BATCH','150'))
INIT=os.environ.get('INIT','pytorch'); ROUND=os.environ.get('ROUND','step'); TESTDROP=os.environ.get('TESTDROP','0') == '1'

def load():
    rows = list(csv.DictReader(open(sys.argv[1])))
    keep = []
    for r in rows:
        d = int(r['days_b_screening_arrest']) if r['days_b_screening_arrest'] else None
        if d is None or d < -30 or d > 30: continue
        if r['is_recid'] == '-1' or r['c_charge_degree'] == 'O' or r['score_text'] == 'N/A': continue
        keep.append(r)
    cats = {c: sorted(set(r[c] for r in keep)) for c in ['sex', 'age_cat', 'c_charge_degree']}
    X = []
    for r in keep:
        x = []
        for c in ['sex', 'age_cat', 'c_charge_degree']:
            x += [1.0 if r[c] == v else 0.0 for v in cats[c]]
        x += [float(r[c]) for c in ['age', 'juv_fel_count', 'juv_misd_count', 'juv_other_count', 'priors_count']]
        X.append(x)
    X = np.array(X); y = np.array([float(r['two_year_recid']) for r in keep])
    a = np.array([1.0 if r['race'] == 'African-American' else 0.0 for r in keep])
    return X, y, a

def init(sizes, rng):
    P = []
    for i, o in zip(sizes[:-1], sizes[1:]):
        b = 1 / np.sqrt(i)
        if INIT == 'glorot':
            g = np.sqrt(6 / (i + o))
            P += [rng.uniform(-g, g, (i, o)), np.zeros(o)]
        elif INIT == 'zerobias':
            P += [rng.uniform(-b, b, (i, o)), np.zeros(o)]
        else:
            P += [rng.uniform(-b, b, (i, o)), rng.uniform(-b, b, o)]
    return P

def forward(P, x, rng, p):
    hs, masks, h = [x], [], x
    L = len(P) // 2
    for l in range(L):
        z = h @ P[2*l] + P[2*l+1]
        if l < L - 1:
            m = (rng.random(z.shape) >= p) / (1 - p) if p > 0 else np.ones_like(z)
            masks.append((z > 0) * m)
            h = np.maximum(z, 0) * m
            hs.append(h)
        else:
            return z[:, 0], hs, masks

def backward(P, hs, masks, dz):
    # dz: dLoss/dlogit per row; returns grads and dLoss/dinput
    L = len(P) // 2
    G = [None] * len(P)
    g = dz[:, None]
    for l in reversed(range(L)):
        G[2*l] = hs[l].T @ g; G[2*l+1] = g.sum(0)
        g = g @ P[2*l].T
        if l > 0: g = g * masks[l-1]
    return G, g

class Adam:
    def __init__(s, P, lr=1e-3):
        s.m = [np.zeros_like(p) for p in P]; s.v = [np.zeros_like(p) for p in P]; s.t = 0; s.lr = lr
    def step(s, P, G):
        s.t += 1
        for p, g, m, v in zip(P, G, s.m, s.v):
            m *= 0.9; m += 0.1 * g; v *= 0.999; v += 0.001 * g * g
            p -= s.lr * (m / (1 - 0.9**s.t)) / (np.sqrt(v / (1 - 0.999**s.t)) + 1e-8)

sig = lambda z: 1 / (1 + np.exp(-z))

def run(Xtr, ytr, atr, Xte, yte, beta, rng, pre_clf=PRE, pre_adv=5, rounds=200, batch=BATCH):
    n, d = Xtr.shape
    C = init([d, H, H, H, 1], rng); oc = Adam(C)
    def clf_step(idx, adv=None):
        z, hs, ms = forward(C, Xtr[idx], rng, DROP)
        p = sig(z); dz = (p - ytr[idx]) / len(idx)
        if adv is not None and beta > 0:
            za, hsa, msa = forward(A, p[:, None], rng, 0)
            dza = (sig(za) - atr[idx]) / len(idx)
            _, gin = backward(A, hsa, msa, dza)
            dz = dz - beta * gin[:, 0] * p * (1 - p)
        G, _ = backward(C, hs, ms, dz); oc.step(C, G)
    for e in range(pre_clf):
        perm = rng.permutation(n)
        for s in range(0, n, batch): clf_step(perm[s:s+batch])
    A = init([1, 32, 32, 32, 32, 1], rng); oa = Adam(A)
    def adv_epoch():
        perm = rng.permutation(n)
        for s in range(0, n, batch):
            idx = perm[s:s+batch]
            z, _, _ = forward(C, Xtr[idx], rng, DROP)
            za, hsa, msa = forward(A, sig(z)[:, None], rng, 0)
            G, _ = backward(A, hsa, msa, (sig(za) - atr[idx]) / len(idx)); oa.step(A, G)
    for e in range(pre_adv): adv_epoch()
    for r in range(rounds):
        adv_epoch()
        if ROUND == 'epoch':
            perm = rng.permutation(n)
            for s in range(0, n, batch): clf_step(perm[s:s+batch], adv=A)
        else:
            clf_step(rng.permutation(n)[:batch], adv=A)
    z, _, _ = forward(C, Xte, rng, DROP if TESTDROP else 0)
    p = sig(z)
    risk = np.mean(np.logaddexp(0, z) - yte * z)
    single = (p >= 0.5).all() or (p < 0.5).all()
    return risk, single

def main():
    X, y, a = load()
    print('rows', len(y), 'dim', X.shape[1], file=sys.stderr)
    betas = [0] + [10 ** (-3 + 3 * (k - 1) / 13) for k in range(1, 15)]
    splits = int(sys.argv[2])
    bs = [float(b) for b in sys.argv[3].split(',')] if len(sys.argv) > 3 else betas[:-1]
    res = []
    for m in range(splits):
        rng = np.random.default_rng(1000 + m)
        idx1, idx0 = np.where(y == 1)[0], np.where(y == 0)[0]
        rng.shuffle(idx1); rng.shuffle(idx0)
        tr = np.concatenate([idx1[:len(idx1)//2], idx0[:len(idx0)//2]])
        te = np.concatenate([idx1[len(idx1)//2:], idx0[len(idx0)//2:]])
        mu, sd = X[tr].mean(0), X[tr].std(0); sd[sd == 0] = 1
        if os.environ.get('STD', '1') == '0':
            mu, sd = 0 * mu, 0 * sd + 1
        Xtr, Xte = (X[tr] - mu) / sd, (X[te] - mu) / sd
        for b in bs:
            risk, single = run(Xtr, y[tr], a[tr], Xte, y[te], b, np.random.default_rng([m, int(b * 1e6)]))
            res.append((b, risk, single))
            print(m, b, round(risk, 4), single, flush=True)
    sc = sum(s for _, _, s in res); rk = np.median([r for b, r, _ in res if b < 0.4])
    print('single-class', sc, 'of', len(res), 'median risk beta<0.4', rk)
main()
