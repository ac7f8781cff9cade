"""The CP-SAT N-queens program of the OR-Tools guide "The N-queens Problem"
(https://developers.google.com/optimization/cp/queens; Apache License 2.0, Google LLC), kept as
a peer to measure against. Prints every board, then statistics.
Usage: python ortools_nqueens_sat.py N [--quiet]
--quiet (not in the OR-Tools guide's program) skips printing the boards, so that counting alone can be
timed."""
import sys
import time
from ortools.sat.python import cp_model


class NQueenSolutionPrinter(cp_model.CpSolverSolutionCallback):
    def __init__(self, queens, quiet=False):
        cp_model.CpSolverSolutionCallback.__init__(self)
        self.__quiet = quiet
        self.__queens = queens
        self.__solution_count = 0
        self.__start_time = time.time()

    @property
    def solution_count(self):
        return self.__solution_count

    def on_solution_callback(self):
        if self.__quiet:
            self.__solution_count += 1
            return
        current_time = time.time()
        print(f"Solution {self.__solution_count}, time = {current_time - self.__start_time} s")
        self.__solution_count += 1
        all_queens = range(len(self.__queens))
        for i in all_queens:
            for j in all_queens:
                if self.value(self.__queens[j]) == i:
                    print("Q", end=" ")
                else:
                    print("_", end=" ")
            print()
        print()


def main(board_size, quiet=False):
    model = cp_model.CpModel()
    queens = [model.new_int_var(0, board_size - 1, f"x_{i}") for i in range(board_size)]
    model.add_all_different(queens)
    model.add_all_different(queens[i] + i for i in range(board_size))
    model.add_all_different(queens[i] - i for i in range(board_size))
    solver = cp_model.CpSolver()
    solution_printer = NQueenSolutionPrinter(queens, quiet)
    solver.parameters.enumerate_all_solutions = True
    solver.solve(model, solution_printer)
    print("\nStatistics")
    print(f"  conflicts      : {solver.num_conflicts}")
    print(f"  branches       : {solver.num_branches}")
    print(f"  wall time      : {solver.wall_time} s")
    print(f"  solutions found: {solution_printer.solution_count}")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--quiet"]
    main(int(args[0]) if args else 8, "--quiet" in sys.argv)
