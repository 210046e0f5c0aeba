/*
 * predict_job.h - the lines that pin the ranks of a job (srun, Open
 * MPI's mpirun with a rankfile or --map-by, MPICH's mpiexec), for any
 * number of ranks; pandia predict prints them for one rank.
 */
#ifndef PANDIA_PREDICT_JOB_H
#define PANDIA_PREDICT_JOB_H

/* One rank: its threads' OS PU indexes, thread 0 first. */
struct job_rank {
	int n;
	const int *os;
};

enum job_line {
	JOB_SRUN,	/* srun -n R --cpu-bind=mask_cpu:M0,M1,... */
	JOB_OMPI,	/* Open MPI 4.1's mpirun with a physical rankfile */
	JOB_OMPI_MAPBY,	/* mpirun --map-by slot:PE=n (regular layouts) */
	JOB_MPICH,	/* MPICH's mpiexec -bind-to user:a+b,c+d */
	JOB_LINES
};

struct job_lines {
	char *line[JOB_LINES];	/* NULL: the tool cannot say it */
	char *rankfile;		/* the rankfile's text (the JOB_OMPI
				   line writes it first, as
				   JOB_RANKFILE) */
	const char *mapby_why;	/* why there is no JOB_OMPI_MAPBY line */
};

/* The file the JOB_OMPI line writes and gives mpirun's -rf. */
#define JOB_RANKFILE "pandia.rankfile"

/*
 * The lines that run CMD (shell words, quoted already) as RANKS ranks
 * on this host, rank i bound to the PUs of R[i] (each tool binds a
 * rank to a set: the order of a rank's threads and which of them share
 * a PU are not said).  ORDER holds the machine's N_ORDER PUs' OS
 * indexes in hwloc's logical order, which --map-by walks: the
 * JOB_OMPI_MAPBY line is made only when rank i holds exactly the
 * ORDER[i*n .. i*n+n-1], n PUs for every rank.  Free with
 * job_lines_release().
 */
void job_lines(int ranks, const struct job_rank *r, const int *order,
	       int n_order, const char *cmd, struct job_lines *out);
void job_lines_release(struct job_lines *j);

#endif
