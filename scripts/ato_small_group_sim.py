#!/usr/bin/env python3
"""Coverage of three intervals of the ATO for one trained network of the certify study, over fresh test
sets drawn from the process's population (docs/method/metrics.md §7.1): the percentile interval, the
expanded percentile interval (what fp computes) and the bootstrap-t, each from 1,000 resamples of 250
rows, against the network's population ATO.

    WORK=/tmp/certify-study-work scripts/ato_small_group_sim.py REP LAMBDA [SEED]

REP and LAMBDA name a candidate of the p1, n = 1,000 cell's ATO sweep (scripts/certify_study.sh, whose
run folders live under WORK). Needs numpy and scipy."""
import importlib.util, json, numpy as np, os, sys
from scipy.stats import norm
from scipy.stats import t as tdist
spec=importlib.util.spec_from_file_location("cs", os.path.join(os.path.dirname(os.path.abspath(__file__)), "certify_study.py")); cs=importlib.util.module_from_spec(spec); spec.loader.exec_module(cs)
W=os.environ.get('WORK', '/tmp/certify-study-work'); pop=cs.Population(W+'/pop-p1.csv')
def setup(rep,lam,run='ato'):
    d=W+f'/runs/rep-p1-1000/rep-{rep:03d}/{run}'
    recs=[json.loads(l) for l in open(d+'/records.jsonl')]
    rec=[r for r in recs if abs(r.get('lambda',-1)-lam)<1e-9][0]
    wp=rec['weights'] if os.path.isabs(rec['weights']) else os.path.join(d,rec['weights'])
    net=json.load(open(wp)); sch=net['schema']
    a=(pop.cols[sch['sensitive']]==float(sch['sensitive_positive'])).astype(int)
    p=cs.sigmoid_stable(cs.forward(net,pop.matrix(net['features'])))
    e=pop.propensity(os.path.join(d,'splits/split-000/propensity.json'))
    return a,p,np.where(a==1,1-e,e)
def stats(M,a,w,p):
    # M: B x n multiplicities
    out=[]
    res={}
    for g in (0,1):
        mw=M[:,a==g]*w[a==g]; pg=p[a==g]
        sw=mw.sum(1); m=(mw*pg).sum(1)/sw
        mw2=M[:,a==g]*w[a==g]**2
        v=(mw2*(pg[None,:]-m[:,None])**2).sum(1)/sw**2
        res[g]=(m,v)
    return res[1][0]-res[0][0], np.sqrt(res[1][1]+res[0][1])
rng=np.random.default_rng(int(sys.argv[3]) if len(sys.argv)>3 else 1)
a,p,w=setup(int(sys.argv[1]),float(sys.argv[2]))
truth=stats(np.ones((1,len(a))),a,w,p)[0][0]
hits={'pct':0,'exp':0,'bt':0,'normal':0}; N=300;B=1000
for k in range(N):
    idx=rng.choice(len(a),250,replace=False); aa,ww,pp=a[idx],w[idx],p[idx]
    if aa.sum()<2: continue
    d0,s0=stats(np.ones((1,250)),aa,ww,pp); d0,s0=d0[0],s0[0]
    M=rng.multinomial(250,np.ones(250)/250,size=B).astype(float)
    ok=(M[:,aa==1].sum(1)>0)
    ds,ss=stats(M[ok],aa,ww,pp)
    lo,hi=np.quantile(ds,[0.025,0.975]); hits['pct']+=lo<=truth<=hi
    ess=min(ww[aa==1].sum()**2/(ww[aa==1]**2).sum(), ww[aa==0].sum()**2/(ww[aa==0]**2).sum()); n=max(ess,2)
    lev=1-2*norm.sf(np.sqrt(n/(n-1))*tdist.ppf(0.975,n-1))
    lo,hi=np.quantile(ds,[(1-lev)/2,1-(1-lev)/2]); hits['exp']+=lo<=truth<=hi
    tt=(ds-d0)/np.maximum(ss,1e-12); ql,qh=np.quantile(tt,[0.025,0.975])
    hits['bt']+= (d0-qh*s0)<=truth<=(d0-ql*s0)
    hits['normal']+=abs(d0-truth)<=1.96*s0
print(sys.argv[1:3],'truth',round(truth,4),{k:v/N for k,v in hits.items()})
