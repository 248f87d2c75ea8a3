// yamlio.cpp: the driver of tests/large/build-large-llvm.sh: writes N
// records (argv[1], default 200) as YAML with LLVM's YAML I/O and reads
// them back, so that the program links LLVM's Support library (and the
// archives build-large-llvm.sh takes whole) from Debian's llvm-19-dev.
// Prints the record count and the text's length: the same on every run.
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <string>
#include <vector>

struct Rec {
	std::string name;
	int value;
};
LLVM_YAML_IS_SEQUENCE_VECTOR(Rec)

namespace llvm {
namespace yaml {
template <> struct MappingTraits<Rec> {
	static void mapping(IO &io, Rec &r)
	{
		io.mapRequired("name", r.name);
		io.mapRequired("value", r.value);
	}
};
} // namespace yaml
} // namespace llvm

int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 200;
	std::vector<Rec> v, w;
	std::string s;
	llvm::raw_string_ostream os(s);

	for (int i = 0; i < n; i++)
		v.push_back({"rec" + std::to_string(i), i * 7 % 1000});
	llvm::yaml::Output out(os);
	out << v;
	llvm::yaml::Input in(os.str());
	in >> w;
	if (in.error())
		return 1;
	llvm::outs() << w.size() << " " << s.size() << "\n";
	return 0;
}
