"""The package as users meet it: `import notate` is light, `notate.spark` loads on first use,
and Spark's workers run the driver's interpreter when the user chose none."""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[3] / "corpus"


def java_missing():
    home = os.environ.get("JAVA_HOME")
    return shutil.which("java") is None and not (home and Path(home, "bin", "java").exists())


def run_python(code, env=None, python=sys.executable):
    return subprocess.run(
        [python, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, timeout=300
    )


def test_import_notate_loads_neither_spark_nor_pyspark_nor_pyarrow():
    done = run_python(
        """
        import sys
        import notate
        print(sorted(m for m in ("notate.spark", "pyspark", "pyarrow") if m in sys.modules))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_notate_spark_is_loaded_on_first_use():
    done = run_python(
        """
        import sys
        import notate
        read = notate.spark.read
        print("notate.spark" in sys.modules, "pyspark" in sys.modules, read.__module__)
        print(notate.spark is sys.modules["notate.spark"])
        """
    )
    assert done.returncode == 0, done.stderr
    # Loading the submodule does not import pyspark either: read() does, when called.
    assert done.stdout.split() == ["True", "False", "notate.spark", "True"]


def test_a_missing_attribute_is_still_an_attribute_error():
    import notate

    with pytest.raises(AttributeError, match="no attribute 'sparkle'"):
        notate.sparkle


# The driver runs from a virtualenv that is not first on PATH: the first `python3` there is
# another interpreter, without notate (the base interpreter of this virtualenv, run outside it).
SPARK_DRIVER = """
    import os, sys
    import notate
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[1]")
        .appName("notate-workers")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    frame = notate.spark.read(spark, sys.argv[1] if len(sys.argv) > 1 else {path!r}, numbered=False)
    print("games", frame.count())
    spark.stop()
"""


@pytest.fixture(scope="module")
def path_without_notate(tmp_path_factory):
    """A PATH whose first `python3` cannot import notate (checked, not assumed)."""
    base = Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    if not base.exists():
        base = Path(sys.base_prefix) / "bin" / "python3"
    folder = tmp_path_factory.mktemp("other-python")
    (folder / "python3").symlink_to(base)
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "VIRTUAL_ENV")}
    env["PATH"] = f"{folder}{os.pathsep}{env.get('PATH', '')}"
    env["SPARK_LOCAL_IP"] = "127.0.0.1"
    other = subprocess.run(["python3", "-c", "import notate"], capture_output=True, text=True, env=env)
    assert other.returncode != 0 and "No module named 'notate'" in other.stderr, (
        "the first python3 on this PATH must lack notate for the test to mean anything"
    )
    return env


def spark_read(env):
    source = CORPUS / "pgn" / "generated.pgn"
    return run_python(SPARK_DRIVER.format(path=str(source)), env=env)


def test_spark_workers_run_the_drivers_interpreter(path_without_notate):
    if java_missing():
        pytest.skip("SKIPPED: no Java on this machine (java on PATH or JAVA_HOME): Spark cannot run")
    import notate

    expected = notate.to_arrow(str(CORPUS / "pgn" / "generated.pgn")).num_rows
    done = spark_read(path_without_notate)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[-2:] == ["games", str(expected)]


def test_a_chosen_interpreter_is_kept(path_without_notate):
    # The user's PYSPARK_PYTHON wins, even a wrong one: Spark then starts the python3 of
    # PATH, which cannot import notate, and the read fails as Spark makes it fail.
    if java_missing():
        pytest.skip("SKIPPED: no Java on this machine (java on PATH or JAVA_HOME): Spark cannot run")
    env = dict(path_without_notate, PYSPARK_PYTHON="python3")
    done = spark_read(env)
    assert done.returncode != 0
    assert "No module named 'notate'" in done.stderr
