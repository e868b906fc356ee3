// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command chains runs the K chains of one analysis as K separate processes
// — on one machine, or on K machines under a batch scheduler — and merges
// their files into one summary, identical to a single-process run.
//
// Chains are independent given the master seed and their index: chain k
// draws all its randomness from rng.ChainSource(seed, k). So chain k of
// sample.Run with sample.Settings{Chains: K, Seed: seed, ChainIDs:
// []int{k}} draws exactly what chain k of the full sample.Run draws, and
// sgmcmc.Run of newSampler(k, rng.ChainSource(seed, k)) exactly what
// chain k of sgmcmc.RunChains(ctx, K, seed, newSampler, opts) draws. Each
// process writes its chain as a CmdStan-style CSV file (package stancsv);
// the merge reads the K files (stancsv.ReadFiles) and summarises them
// across chains (diagnostics.NewTable): R̂, bulk and tail ESS, MCSE.
//
// The model is a Bayesian logistic regression with an intercept and two
// slopes on N = 2000 synthetic items, the data drawn from a fixed seed so
// that every process builds the same. -method sample (the default) runs
// sample.Run with every setting adapted; -method sghmc runs hand-tuned
// SGHMC (minibatches of 500, ε = 0.002, C = 10) as a chain of
// sgmcmc.RunChains. The hand-tuned chains come out about 10 % too wide
// (sd 0.068 against 0.062 for alpha; gradient noise heats them), sample.Run's
// match the posterior: the point of this example is the bookkeeping, not
// the sampler.
//
// # Usage
//
//	chains [-chain k] [-chains 4] [-seed 1] [-draws 1000] [-method sample|sghmc] [-out DIR]
//	chains -all   [-chains 4] [-seed 1] [-out DIR] [-plot DIR] [-json]
//	chains -merge [-out DIR | FILE...] [-plot DIR] [-json]
//
// The chain index k (0 … K−1) comes from -chain, else from the environment:
// JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), else
// SLURM_ARRAY_TASK_ID (a Slurm job array). The process writes
// DIR/chain-k.csv (atomically: a temporary file renamed) with comments
// naming the method, seed, K, k and the adapted settings, and columns
// lp__, stepsize__, divergent__, alpha, beta.1, beta.2; it prints its own
// one-chain summary. -merge reads DIR/chain-*.csv (or the files named),
// checks that they are the K chains of one analysis — same method, seed,
// K and draws, each index once; a missing chain is an error naming it —
// and prints the summary across them. -all runs all K chains in this
// process, the single-process reference. -json prints the summary as one
// object {"rows": [...]} with posterior's column names; -plot DIR writes
// trace and rank plots of the merged chains (DIR/trace.png, DIR/rank.png;
// their legend numbers chains from 1).
//
// # A shell loop of K processes
//
//	go build -o chains ./examples/chains
//	K=4
//	for k in $(seq 0 $((K-1))); do ./chains -chain $k -chains $K -seed 1 -out run1 & done
//	wait
//	./chains -merge -out run1          # the summary across the 4 files
//	./chains -all -chains $K -seed 1 -out ref && cmp run1/chain-2.csv ref/chain-2.csv   # identical
//
// Each process takes about a quarter of a second of CPU (sample.Run's warmup
// and 1000 draws), the merge a few milliseconds.
//
// # A Slurm job array
//
// One array task per chain; the index comes from SLURM_ARRAY_TASK_ID, so
// the array must run 0 … K−1. The output directory must be on a file
// system all nodes share.
//
//	#!/bin/bash
//	#SBATCH --job-name=chains
//	#SBATCH --array=0-3
//	#SBATCH --cpus-per-task=1
//	#SBATCH --time=00:30:00
//	./chains -chains 4 -seed 1 -out "$HOME/runs/run1"
//
// Submit it and, once every task has succeeded, merge:
//
//	jid=$(sbatch --parsable chains.sbatch)
//	sbatch --dependency=afterok:$jid --wrap './chains -merge -out "$HOME/runs/run1"'
//
// # A Kubernetes Indexed Job
//
// completionMode: Indexed gives each pod its index in JOB_COMPLETION_INDEX,
// 0 … completions−1. The pods share a volume that several nodes can mount
// read-write (ReadWriteMany); Go sizes GOMAXPROCS to the container's CPU
// limit.
//
//	apiVersion: batch/v1
//	kind: Job
//	metadata:
//	  name: chains
//	spec:
//	  completions: 4
//	  parallelism: 4
//	  completionMode: Indexed
//	  backoffLimit: 4
//	  template:
//	    spec:
//	      restartPolicy: Never
//	      containers:
//	      - name: chain
//	        image: registry.example.com/chains:v1
//	        args: ["-chains", "4", "-seed", "1", "-out", "/runs/run1"]
//	        resources:
//	          limits: {cpu: "1", memory: 256Mi}
//	        volumeMounts:
//	        - {name: runs, mountPath: /runs}
//	      volumes:
//	      - name: runs
//	        persistentVolumeClaim: {claimName: chains-runs}
//
// Then kubectl wait --for=condition=complete job/chains and run
// chains -merge -out /runs/run1 in a pod that mounts the volume (or on a
// copy of the files).
//
// # Why retries are safe, and what "identical" needs
//
// A chain is a pure function of (model, data, settings, seed, k): a task
// that the scheduler retries, or a chain rerun a month later, writes the
// same file, and the merge refuses files of different seeds, methods or
// K. Bit-for-bit identity with a single-process run holds for the same
// program on the same architecture: Go compiles a·b + c to a fused
// multiply-add on arm64 (not on amd64 by default), so a chain run on an
// arm64 node differs in its last bits from one run on amd64, and the
// chaos of a Markov chain makes the draws differ after that — each is
// still a valid chain of the same posterior, and the merge and the
// diagnostics are as valid; only the bitwise comparison with another
// machine's run fails.
//
// # What the tests check
//
// main_test.go runs K = 3 chains one at a time in-process, in the order
// 2, 0, 1, writes and merges them, and checks the merged draws and step
// sizes equal those of one sample.Run of all three chains (and of one
// sgmcmc.RunChains for -method sghmc) bit for bit, and the merged summary
// equals that run's own summary in every field. TestProcesses builds the
// program and runs three real processes concurrently, their indices from
// -chain, SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX, then -merge -json,
// with the same checks. Further tests cover the index's precedence and
// errors, and a merge of files that are not one analysis (a missing or
// duplicated chain, a different seed, a foreign file).
package main
