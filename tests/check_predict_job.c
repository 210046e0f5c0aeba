/*
 * check_predict_job.c - the lines that pin a job's ranks
 * (builtin/predict_job.c): srun's masks, Open MPI's physical rankfile
 * and --map-by, MPICH's user binding, for 1, 2 and 4 ranks on 8 PUs:
 * four cores of two PUs, siblings numbered i and i + 4 by the OS.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/predict_job.h"
#include "tests/lib/testkit.h"

/* hwloc's logical order: core by core, the siblings together */
static const int order[8] = { 0, 4, 1, 5, 2, 6, 3, 7 };

static struct job_lines j;

static void make(int ranks, const struct job_rank *r)
{
	job_lines(ranks, r, order, 8, "a.out", &j);
}

START_TEST(test_one_rank)
{
	static const int a[] = { 1, 0 }, b[] = { 4, 0, 4 };
	struct job_rank r = { 2, a };

	make(1, &r);
	ck_assert_str_eq(j.line[JOB_SRUN],
			 "srun -n 1 --cpu-bind=mask_cpu:0x3 a.out");
	ck_assert_str_eq(j.rankfile, "rank 0=localhost slot=0,1\n");
	ck_assert_str_eq(j.line[JOB_OMPI], "printf 'rank 0=localhost "
			 "slot=0,1\\n' >pandia.rankfile && mpirun -np 1 "
			 "--mca rmaps_rank_file_physical 1 -rf "
			 "pandia.rankfile a.out");
	/* 0 and 1 are not the first core's siblings */
	ck_assert_ptr_null(j.line[JOB_OMPI_MAPBY]);
	ck_assert_ptr_nonnull(j.mapby_why);
	ck_assert_str_eq(j.line[JOB_MPICH],
			 "mpiexec.mpich -n 1 -bind-to user:0+1 a.out");
	job_lines_release(&j);
	/* the first core, two threads sharing PU 4: one set of two */
	r.n = 3;
	r.os = b;
	make(1, &r);
	ck_assert_str_eq(j.line[JOB_SRUN],
			 "srun -n 1 --cpu-bind=mask_cpu:0x11 a.out");
	ck_assert_str_eq(j.line[JOB_OMPI_MAPBY], "mpirun -np 1 "
			 "--use-hwthread-cpus --map-by slot:PE=2 "
			 "--bind-to hwthread a.out");
	ck_assert_str_eq(j.line[JOB_MPICH],
			 "mpiexec.mpich -n 1 -bind-to user:0+4 a.out");
	job_lines_release(&j);
}
END_TEST

START_TEST(test_two_ranks)
{
	static const int a[] = { 0, 4 }, b[] = { 5, 1 };
	static const int c[] = { 0, 4, 1 }, d[] = { 2, 5, 6 };
	struct job_rank r[2] = { { 2, a }, { 2, b } };

	make(2, r);
	ck_assert_str_eq(j.line[JOB_SRUN],
			 "srun -n 2 --cpu-bind=mask_cpu:0x11,0x22 a.out");
	ck_assert_str_eq(j.rankfile, "rank 0=localhost slot=0,4\n"
			 "rank 1=localhost slot=1,5\n");
	ck_assert_str_eq(j.line[JOB_OMPI], "printf 'rank 0=localhost "
			 "slot=0,4\\nrank 1=localhost slot=1,5\\n' "
			 ">pandia.rankfile && mpirun -np 2 --mca "
			 "rmaps_rank_file_physical 1 -rf pandia.rankfile "
			 "a.out");
	ck_assert_str_eq(j.line[JOB_OMPI_MAPBY], "mpirun -np 2 "
			 "--use-hwthread-cpus --map-by slot:PE=2 "
			 "--bind-to hwthread a.out");
	ck_assert_str_eq(j.line[JOB_MPICH],
			 "mpiexec.mpich -n 2 -bind-to user:0+4,1+5 a.out");
	job_lines_release(&j);
	/* three PUs each, across cores: still the logical order */
	r[0].n = r[1].n = 3;
	r[0].os = c;
	r[1].os = d;
	make(2, r);
	ck_assert_str_eq(j.rankfile, "rank 0=localhost slot=0,1,4\n"
			 "rank 1=localhost slot=2,5,6\n");
	ck_assert_str_eq(j.line[JOB_OMPI_MAPBY], "mpirun -np 2 "
			 "--use-hwthread-cpus --map-by slot:PE=3 "
			 "--bind-to hwthread a.out");
	ck_assert_str_eq(j.line[JOB_MPICH], "mpiexec.mpich -n 2 "
			 "-bind-to user:0+1+4,2+5+6 a.out");
	job_lines_release(&j);
	/* unequal ranks: no --map-by */
	r[1].n = 2;
	make(2, r);
	ck_assert_ptr_null(j.line[JOB_OMPI_MAPBY]);
	job_lines_release(&j);
}
END_TEST

START_TEST(test_four_ranks)
{
	static const int a[] = { 0, 1 }, b[] = { 2, 3 }, c[] = { 4, 5 };
	static const int d[] = { 7, 6 }, e[] = { 7 }, f[] = { 6 };
	static const int g[] = { 5 }, h[] = { 4, 5, 6, 7 };
	struct job_rank r[4] = { { 2, a }, { 2, b }, { 2, c }, { 2, d } };

	make(4, r);
	ck_assert_str_eq(j.line[JOB_SRUN], "srun -n 4 --cpu-bind=mask_cpu:"
			 "0x3,0xc,0x30,0xc0 a.out");
	ck_assert_str_eq(j.rankfile, "rank 0=localhost slot=0,1\n"
			 "rank 1=localhost slot=2,3\n"
			 "rank 2=localhost slot=4,5\n"
			 "rank 3=localhost slot=6,7\n");
	ck_assert_ptr_null(j.line[JOB_OMPI_MAPBY]);
	ck_assert_str_eq(j.line[JOB_MPICH], "mpiexec.mpich -n 4 -bind-to "
			 "user:0+1,2+3,4+5,6+7 a.out");
	job_lines_release(&j);
	/* one thread each, backwards; the last a set of four */
	r[0].n = r[1].n = r[2].n = 1;
	r[0].os = e;
	r[1].os = f;
	r[2].os = g;
	r[3].n = 4;
	r[3].os = h;
	make(4, r);
	ck_assert_str_eq(j.line[JOB_SRUN], "srun -n 4 --cpu-bind=mask_cpu:"
			 "0x80,0x40,0x20,0xf0 a.out");
	ck_assert_str_eq(j.rankfile, "rank 0=localhost slot=7\n"
			 "rank 1=localhost slot=6\n"
			 "rank 2=localhost slot=5\n"
			 "rank 3=localhost slot=4-7\n");
	ck_assert_ptr_null(j.line[JOB_OMPI_MAPBY]);
	ck_assert_str_eq(j.line[JOB_MPICH], "mpiexec.mpich -n 4 -bind-to "
			 "user:7,6,5,4+5+6+7 a.out");
	job_lines_release(&j);
	/* one PU each in the logical order: --map-by slot:PE=1 */
	r[0].os = order;
	r[1].os = order + 1;
	r[2].os = order + 2;
	r[3].n = 1;
	r[3].os = order + 3;
	make(4, r);
	ck_assert_str_eq(j.line[JOB_OMPI_MAPBY], "mpirun -np 4 "
			 "--use-hwthread-cpus --map-by slot:PE=1 "
			 "--bind-to hwthread a.out");
	ck_assert_str_eq(j.line[JOB_SRUN], "srun -n 4 --cpu-bind=mask_cpu:"
			 "0x1,0x10,0x2,0x20 a.out");
	job_lines_release(&j);
}
END_TEST

static Suite *job_suite(void)
{
	Suite *s = suite_create("predict_job");
	TCase *tc = tcase_create("lines");

	tcase_add_test(tc, test_one_rank);
	tcase_add_test(tc, test_two_ranks);
	tcase_add_test(tc, test_four_ranks);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { job_suite, NULL };
