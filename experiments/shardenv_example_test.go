package experiments_test

import (
	"fmt"

	"github.com/fpareto/fp/experiments"
)

// The third task of a Slurm array submitted with --array=0-6:2 (IDs 0, 2, 4,
// 6) runs shard 2 of 4; getenv would be os.Getenv in a real job.
func ExampleShardFromEnv() {
	env := map[string]string{
		"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6",
		"SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "4",
	}
	ch, err := experiments.ShardFromEnv(0, func(k string) string { return env[k] })
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ch.Shard, "from a", ch.From)
	// Output:
	// 2/4 from a Slurm array
}
