// GeneticOptimization against Exudyn's exudyn.processing.GeneticOptimization: the draw order
// on a cheap analytic objective (bit for bit), and Exudyn's geneticOptimizationTest (the
// oscillator error against a nominal run) evaluated generation by generation as mbsweep
// batches.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "common/rules.h"
#include "cpu/evaluator_cpu.h"
#include "cpu/simulation.h"
#include "oscillator_fixture.h"
#include "studies/genetic.h"

namespace mbsweep {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

// ----------------------------------------------------------------------------------------
// Draw order on an analytic objective
// ----------------------------------------------------------------------------------------

// The reference numbers below were produced with Exudyn 1.13.6 / numpy 2.4.6:
//   /tmp/exuenv/bin/python analytic.py <case>
// where analytic.py calls exudyn.processing.GeneticOptimization(objectiveFunction=f,
// showProgress=False, **case) with
//   f(p) = ((p['x']-0.3)**2 + (p['y']-0.7)**2) + (p['z']+1.0)**2
//          (case D: float('nan') if p['x'] > 0.5)
//   parameters = {'x':(-2,3), 'y':(0,1), 'z':(-5,5)}
//   A: populationSize=7, numberOfGenerations=3, elitistRatio=0.3, crossoverProbability=0.5,
//      crossoverAmount=0.5, rangeReductionFactor=0.6, distanceFactor=0.2,
//      distanceFactorGenerations=1, childDistribution='uniform', initialPopulationSize=5,
//      randomizerInitialization=3
//   B: populationSize=6, numberOfGenerations=3, elitistRatio=0.5, crossoverProbability=0.25,
//      rangeReductionFactor=0.7, distanceFactor=0.3, childDistribution='normal',
//      randomizerInitialization=42
//   C: all defaults (100 individuals x 10 generations), randomizerInitialization=7
//   D: B with childDistribution='uniform', crossoverProbability=0 and the NaN objective
// and printing optimumParameter, optimumValue and (x, y, z, value) of every evaluation.

double Analytic(const std::vector<double>& p) {
  return ((p[0] - 0.3) * (p[0] - 0.3) + (p[1] - 0.7) * (p[1] - 0.7)) + (p[2] + 1.0) * (p[2] + 1.0);
}

std::vector<GeneticParameter> AnalyticParameters() { return {{"x", -2, 3}, {"y", 0, 1}, {"z", -5, 5}}; }

/// A batch objective that counts its calls and records the generation sizes.
struct CountingObjective {
  bool nanAbove = false;  // case D
  std::vector<std::size_t> sizes;
  GeneticObjective Function() {
    return [this](const GeneticIndividuals& inds) {
      sizes.push_back(inds.size());
      std::vector<double> v;
      for (const auto& p : inds) v.push_back(nanAbove && p[0] > 0.5 ? kNaN : Analytic(p));
      return v;
    };
  }
};

struct Row {
  double x, y, z, value;
};

void ExpectHistory(const GeneticResult& r, const std::vector<Row>& want) {
  ASSERT_EQ(r.NumberOfEvaluations(), want.size());
  ASSERT_EQ(r.parameterHistory.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("evaluation " + std::to_string(i));
    EXPECT_EQ(r.parameterHistory[i][0], want[i].x);
    EXPECT_EQ(r.parameterHistory[i][1], want[i].y);
    EXPECT_EQ(r.parameterHistory[i][2], want[i].z);
    if (std::isnan(want[i].value))
      EXPECT_TRUE(std::isnan(r.valueHistory[i]));
    else
      EXPECT_EQ(r.valueHistory[i], want[i].value);
  }
}

TEST(GeneticOptimization, DrawOrderUniformCrossoverDistanceInitialPopulation) {
  GeneticOptions o;
  o.randomStream = GeneticRandomStream::Numpy;  // Exudyn's numpy draws, bit for bit
  o.populationSize = 7;
  o.numberOfGenerations = 3;
  o.elitistRatio = 0.3;  // S = int(2.1) = 2; 7 children from 2 survivors: the last loop draws for nothing
  o.crossoverProbability = 0.5;
  o.crossoverAmount = 0.5;
  o.rangeReductionFactor = 0.6;
  o.distanceFactor = 0.2;
  o.distanceFactorGenerations = 1;
  o.childDistribution = ChildDistribution::Uniform;
  o.initialPopulationSize = 5;
  o.randomizerInitialization = 3;
  CountingObjective f;
  std::vector<std::size_t> firsts;
  o.onGeneration = [&](int g, std::size_t first, const GeneticIndividuals& inds, const std::vector<double>& v) {
    EXPECT_EQ(static_cast<std::size_t>(g), firsts.size());
    EXPECT_EQ(inds.size(), v.size());
    firsts.push_back(first);
  };
  const GeneticResult r = GeneticOptimization(f.Function(), AnalyticParameters(), o);
  const std::vector<Row> want = {
      {0.7539895128728773, 0.7081478226181048, -2.0909526108705565, 1.3963504639772524},
      {0.5541380259883151, 0.8929469543476547, 3.9629308893343804, 24.73249767575462},
      {-1.3720734476808187, 0.20724287813818676, -4.485327966991701, 15.186150233079259},
      {0.20404921825318212, 0.029876210878566956, -0.43166775605288876, 0.781273984774251},
      {1.2457202380738037, 0.2784872826479753, 1.7625490198013125, 8.703736826397051},
      {-1.2240051346153218, 0.1843526689804294, -1.8761530746080963, 3.3561280304666923},
      {0.8879365669684116, 0.8699788150373983, -3.189683368888061, 5.169275460325087},
      {-0.6300771299502737, 0.12798248837225001, 2.1866341431096936, 11.346884663297793},
      {0.7212002459916231, 0.2978234947765756, 1.642837471706187, 7.323745490431482},
      {-0.6207872672273221, 0.13410124966086878, -0.6180262638578746, 1.3139945222257243},
      {-0.4882440469936341, 0.09625549472323087, -0.6855493601150213, 1.0847153101968656},
      {0.46280793165664624, 0.09351590188920182, -1.7638027163112808, 0.9777239733160745},
      {0.36406902033100397, 0.016829141008229152, -2.6901711964476633, 3.3275059352430545},
      {1.311692622769068, 0.06306844661558209, -1.0744836769008916, 1.4347515847867196},
      {0.865898382644114, 0.1299442898149643, -1.4158131277445745, 0.8181050493985151},
      {-0.20446311204741618, 0.15133025781058226, -2.887669346585319, 4.118817079448611},
      {1.0178314557093568, 0.1430540974263026, -0.2839969319577125, 1.3381311306454133},
      {0.03780393937117038, 0.25347421133254605, -0.5427077082313865, 0.4772482942653593},
      {0.1684811392069202, 0.17673742582056018, 0.44944060827480437, 2.3919790091972377},};
  ExpectHistory(r, want);
  EXPECT_EQ(f.sizes, (std::vector<std::size_t>{5, 7, 7}));
  EXPECT_EQ(firsts, (std::vector<std::size_t>{0, 5, 12}));
  EXPECT_EQ(r.generationOffsets, (std::vector<std::size_t>{0, 5, 12, 19}));
  EXPECT_EQ(r.survivingIndividuals, 2);
  EXPECT_EQ(r.names, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(r.optimumParameters, (std::vector<double>{0.03780393937117038, 0.25347421133254605, -0.5427077082313865}));
  EXPECT_EQ(r.optimumValue, 0.4772482942653593);
  EXPECT_EQ(r.Column(0).size(), 19u);
  EXPECT_EQ(r.Column(2)[3], want[3].z);
}

TEST(GeneticOptimization, DrawOrderNormalChildren) {
  GeneticOptions o;
  o.randomStream = GeneticRandomStream::Numpy;  // Exudyn's numpy draws, bit for bit
  o.populationSize = 6;
  o.numberOfGenerations = 3;
  o.elitistRatio = 0.5;
  o.crossoverProbability = 0.25;
  o.rangeReductionFactor = 0.7;
  o.distanceFactor = 0.3;
  o.childDistribution = ChildDistribution::Normal;
  o.randomizerInitialization = 42;
  CountingObjective f;
  const GeneticResult r = GeneticOptimization(f.Function(), AnalyticParameters(), o);
  ExpectHistory(r, {
      {-0.12729940576318755, 0.9507143064099162, 2.3199394181140507, 11.26744018555164},
      {0.993292420985183, 0.15601864044243652, -3.4400547966379733, 6.7304375111375725},
      {-1.7095819391590026, 0.8661761457749352, 1.0111501174320878, 8.11075887646577},
      {1.5403628889802272, 0.020584494295802447, 4.699098521619943, 34.47982948488128},
      {2.162213204002109, 0.21233911067827616, -3.181750327928994, 8.465685653552125},
      {-1.082977450732831, 0.3042422429595377, 0.24756431632237863, 3.6256675548541013},
      {0.4222499952013089, 0.1870982129214379, -2.350859613594725, 2.1028350001563925},
      {0.5981838951337456, 0.27009458538506914, -3.8473007761961613, 8.38085401095963},
      {-0.866626741879868, 0.6128795072516293, 4.327189491095323, 29.747555809162403},
      {-1.3971094136289344, 0.6500159827232663, 2.1416494079061295, 12.752639766008},
      {-0.8036072906853868, 0.8365156215136569, 3.6216585138210977, 22.596312985346238},
      {1.4543929913880507, 0.6683927142427705, -1.3041747845349192, 1.4261444986256555},
      {2.5943588823326507, 0.8344457296127391, 0.40700385053193666, 7.261818170561528},
      {-1.1107511182410446, 0.9360326589088404, 1.6018994157705548, 8.81581070347709},
      {-0.6757606041320858, 0.19185423790571085, 1.2480465357146353, 6.264034098849172},
      {-0.7589082635146666, 0.4233499684913306, 3.6313782886145667, 22.647486802723787},
      {2.0274415641354118, 0.8487426901567385, -3.214444392151621, 7.909942711309423},
      {-1.881718862551085, 0.7992579697027123, 3.3660258451570573, 23.831931020340104},});
  EXPECT_EQ(f.sizes, (std::vector<std::size_t>{6, 6, 6}));
  EXPECT_EQ(r.optimumParameters, (std::vector<double>{1.4543929913880507, 0.6683927142427705, -1.3041747845349192}));
  EXPECT_EQ(r.optimumValue, 1.4261444986256555);
}

// NaN values (failed systems) sort after every number, ties by index.
TEST(GeneticOptimization, DrawOrderNaNValuesNoCrossover) {
  GeneticOptions o;
  o.randomStream = GeneticRandomStream::Numpy;  // Exudyn's numpy draws, bit for bit
  o.populationSize = 6;
  o.numberOfGenerations = 3;
  o.elitistRatio = 0.5;
  o.crossoverProbability = 0;
  o.rangeReductionFactor = 0.7;
  o.distanceFactor = 0.3;
  o.randomizerInitialization = 42;
  CountingObjective f;
  f.nanAbove = true;
  const GeneticResult r = GeneticOptimization(f.Function(), AnalyticParameters(), o);
  ExpectHistory(r, {
      {-0.12729940576318755, 0.9507143064099162, 2.3199394181140507, 11.26744018555164},
      {0.993292420985183, 0.15601864044243652, -3.4400547966379733, kNaN},
      {-1.7095819391590026, 0.8661761457749352, 1.0111501174320878, 8.11075887646577},
      {1.5403628889802272, 0.020584494295802447, 4.699098521619943, kNaN},
      {2.162213204002109, 0.21233911067827616, -3.181750327928994, kNaN},
      {-1.082977450732831, 0.3042422429595377, 0.24756431632237863, 3.6256675548541013},
      {-0.8479928952378497, 0.1905344058983446, 1.0305345793790348, 5.7005135571439265},
      {-1.7153742073491365, 0.6575226956204714, 0.07568302048792974, 5.220631477601548},
      {0.8395373657448086, 0.39731367249217575, -3.9896616037306534, kNaN},
      {-0.6285251571411585, 0.3875826362942102, -2.9272827946376374, 4.674182547095151},
      {-0.7603545114093362, 0.5986797845356723, -2.0334887316709556, 2.2027164344187105},
      {2.5643918013718494, 0.4886278085440544, -0.9095537159875295, kNaN},
      {-1.239050776934578, 0.40153912039880035, -1.1307469017613867, 2.474850942955452},
      {2.0703126411224573, 0.30342654361799604, -0.9331868564423056, kNaN},
      {-0.14745570228253183, 0.3646544313682029, -3.9623064540568986, 9.087932783653294},
      {-0.3621749147420803, 0.5064182118194837, -1.9351554278996828, 1.3504652007590865},
      {2.247263373523586, 0.3342064917515627, 1.3914109600588067, kNaN},
      {1.6673678382199133, 0.3767565882431792, -1.4117913583154986, kNaN},});
  EXPECT_EQ(r.optimumParameters, (std::vector<double>{-0.3621749147420803, 0.5064182118194837, -1.9351554278996828}));
  EXPECT_EQ(r.optimumValue, 1.3504652007590865);
}

TEST(GeneticOptimization, DrawOrderExudynDefaults) {
  GeneticOptions o;  // populationSize 100, 10 generations, elitistRatio 0.1, crossover 0.25, ...
  o.randomStream = GeneticRandomStream::Numpy;  // Exudyn's numpy draws, bit for bit
  o.randomizerInitialization = 7;
  CountingObjective f;
  const GeneticResult r = GeneticOptimization(f.Function(), AnalyticParameters(), o);
  ASSERT_EQ(r.NumberOfEvaluations(), 1000u);
  EXPECT_EQ(f.sizes, std::vector<std::size_t>(10, 100));
  const struct {
    std::size_t i;
    Row row;
  } want[] = {
      {0, {-1.618458553130214, 0.7799187922401146, -0.6159076855910648, 3.8343971394196052}},
      {99, {-1.4068508981321193, 0.21478785120871058, 2.6307207278108375, 16.33090382114434}},
      {100, {0.40302888712337825, 0.575014506393416, 2.3195694990796127, 11.045777984413634}},
      {500, {0.282093006771584, 0.7048525432241292, -1.177023649879231, 0.03168158019878915}},
      {999, {0.1912826105744664, 0.987134046119118, -0.855689784022324, 0.11509086963976245}},
  };
  for (const auto& w : want) {
    SCOPED_TRACE("evaluation " + std::to_string(w.i));
    EXPECT_EQ(r.parameterHistory[w.i], (std::vector<double>{w.row.x, w.row.y, w.row.z}));
    EXPECT_EQ(r.valueHistory[w.i], w.row.value);
  }
  // numpy: np.sum(pList['x']) = 371.4827666003581, np.sum(values) = 2674.0728786978248
  // (pairwise summation: compared with a tolerance)
  double sx = 0, sv = 0;
  for (std::size_t i = 0; i < 1000; ++i) {
    sx += r.parameterHistory[i][0];
    sv += r.valueHistory[i];
  }
  EXPECT_NEAR(sx, 371.4827666003581, 1e-10);
  EXPECT_NEAR(sv, 2674.0728786978248, 1e-10);
  EXPECT_EQ(r.optimumParameters, (std::vector<double>{0.30944168434957003, 0.6980791440132466, -1.0227585846690352}));
  EXPECT_EQ(r.optimumValue, 0.0006107882672164082);
}

// The same seed continues a caller's stream like numpy's global state: seeding inside or
// outside gives the same run, and the stream is left after the last draw.
TEST(GeneticOptimization, CallerStreamAndSeed) {
  GeneticOptions o;
  o.randomStream = GeneticRandomStream::Numpy;  // Exudyn's numpy draws, bit for bit
  o.populationSize = 5;
  o.numberOfGenerations = 2;
  CountingObjective f;
  NumpyRandomState rng(11);
  const GeneticResult a = GeneticOptimization(f.Function(), AnalyticParameters(), o, &rng);
  o.randomizerInitialization = 11;
  NumpyRandomState other(0);
  const GeneticResult b = GeneticOptimization(f.Function(), AnalyticParameters(), o, &other);
  EXPECT_EQ(a.parameterHistory, b.parameterHistory);
  EXPECT_EQ(rng.RandomSample(), other.RandomSample());
  const GeneticResult c = GeneticOptimization(f.Function(), AnalyticParameters(), o);
  EXPECT_EQ(a.parameterHistory, c.parameterHistory);
}

TEST(GeneticOptimization, Validation) {
  const auto f = [](const GeneticIndividuals& inds) { return std::vector<double>(inds.size(), 0.0); };
  GeneticOptions o;
  o.populationSize = 4;
  o.numberOfGenerations = 2;
  EXPECT_THROW(GeneticOptimization(f, {}, o), ValidationError);
  EXPECT_THROW(GeneticOptimization(f, {{"a", 1, 1}}, o), ValidationError);
  EXPECT_THROW(GeneticOptimization(f, {{"a", 2, 1}}, o), ValidationError);
  EXPECT_THROW(GeneticOptimization(f, {{"a", 0, 1}, {"a", 0, 1}}, o), ValidationError);
  EXPECT_THROW(GeneticOptimization(f, {{"a", 0, INFINITY}}, o), ValidationError);
  GeneticOptions bad = o;
  bad.populationSize = 0;
  EXPECT_THROW(GeneticOptimization(f, {{"a", 0, 1}}, bad), ValidationError);
  bad = o;
  bad.numberOfGenerations = 0;
  EXPECT_THROW(GeneticOptimization(f, {{"a", 0, 1}}, bad), ValidationError);
  bad = o;
  bad.randomizerInitialization = -1;
  EXPECT_THROW(GeneticOptimization(f, {{"a", 0, 1}}, bad), ValidationError);
  bad = o;
  bad.randomizerInitialization = std::int64_t{1} << 32;
  EXPECT_THROW(GeneticOptimization(f, {{"a", 0, 1}}, bad), ValidationError);
  const auto wrongSize = [](const GeneticIndividuals&) { return std::vector<double>{1.0}; };
  EXPECT_THROW(GeneticOptimization(wrongSize, {{"a", 0, 1}}, o), ValidationError);
  EXPECT_EQ(ParseChildDistribution("normal"), ChildDistribution::Normal);
  EXPECT_STREQ(ChildDistributionName(ParseChildDistribution("uniform")), "uniform");
  EXPECT_THROW(ParseChildDistribution("gauss"), ValidationError);
  // elitistRatio*populationSize < 1 still keeps one survivor; distanceFactor >= 1 is reset to 0.5
  o.elitistRatio = 0.01;
  o.distanceFactor = 3;
  o.randomizerInitialization = 1;
  const GeneticResult r = GeneticOptimization(f, {{"a", 0, 1}}, o);
  EXPECT_EQ(r.survivingIndividuals, 1);
  EXPECT_EQ(r.NumberOfEvaluations(), 8u);
}

// ----------------------------------------------------------------------------------------
// Exudyn's geneticOptimizationTest with mbsweep batches
// ----------------------------------------------------------------------------------------

using test::Oscillator;

/// The 20 evaluations of Exudyn 1.13.6's geneticOptimizationTest, in order: mass, spring,
/// force and the objective value.
std::vector<Row> ExudynGeneticEvaluations() {
  return {
      {5.939321535345923, 7180.374727086953, 603.1606126955722, 0.01126692825471532},
      {5.903948646972072, 4294.182513455156, 646.2482189535895, 0.01787657576872461},
      {4.9382849013642325, 8928.55270774259, 963.6990977405283, 0.013179338733057409},
      {4.450973669431999, 7938.07787701838, 529.3660248331515, 0.008874424579160746},
      {6.112401049845391, 9263.406719097344, 71.96502213968905, 0.005763719166055813},
      {1.7841636973138664, 300.16213465922465, 832.7872257023901, 0.28707548742565786},
      {8.003410758548654, 8713.12026764351, 978.6397238905313, 0.014466944358748252},
      {8.192427077950512, 4668.645686304026, 780.748647110169, 0.021118823544538364},
      {2.064469832820399, 6435.218111142486, 144.20993412163736, 0.004028627114130026},
      {9.502020253446254, 5266.298385325709, 415.24727805053305, 0.01188031256005561},
      {4.262984527673744, 6131.339913403168, 281.1583185919043, 0.00724502251520197},
      {4.9773978066821005, 7695.232783929627, 178.18704019300432, 0.005979103218963528},
      {2.8418579852658827, 7804.802298918432, 30.68272197964647, 0.003089765271075823},
      {3.8263830702526724, 4428.1692593842035, 64.54260656871762, 0.0054140758888317694},
      {2.532848072009533, 6921.681730138393, 217.16911303068966, 0.0030262381366063158},
      {1.4300647764934311, 4417.73403087969, 80.50299835799234, 0.0032442247724972667},
      {2.0674898178106464, 6201.751767036689, 121.46758117155214, 0.003644160268175215},
      {1.465172702730257, 7518.582166136832, 69.10484029841122, 0.004364599957617771},
      {2.553981108352186, 8659.701193988676, 48.85732839049512, 0.004561977241058897},
      {1.405003841051177, 9737.08220368532, 231.9794003701124, 0.00460639055130732},};
}

// geneticOptimizationTest: 100 steps, tEnd 1, rho 1, displacement sampled every 2e-3 s (one
// value per step, 101 values); error = sqrt(sum diff^2)/100 against the nominal run (mass
// 1.6, spring 4000, force 80). Exudyn 1.11: vOpt = 0.0030262381366063158, v[3] =
// 0.09814894553165972 (ParameterVariation, mass 10, spring 100), testResult = their sum =
// 0.10117518366826603. The individuals and values below are from Exudyn 1.13.6 running that
// test's ParameterFunction and GeneticOptimization call with the sensor files written at 16
// digits (solutionSettings.outputPrecision = 16; with the default 10 digits Exudyn 1.13.6
// reports vOpt = 0.003026238136557096, the same individuals); the problem is linear, so
// useModifiedNewton True (1.13.6 default) and False give the same numbers.
TEST(GeneticOptimization, ExudynGeneticOptimizationTest) {
  const SimulationSettings settings = test::GeneticTestSettings();
  Simulation ref(Oscillator(1.6, 4000, 80));
  ref.SolveDynamic(settings);
  const auto& rows = ref.GetSensorStoredData(SensorIndex(0));
  ASSERT_EQ(rows.size(), 101u);

  const Model model = Oscillator(1.6, 4000, 80);
  const Layout layout = model.Compile();
  ParameterMap map(layout, model.Theta0());
  map.SetParameters({"mass", "spring", "force"});
  map.Bind("mass.mass", "mass");
  map.Bind("spring.stiffness", "spring");
  map.Bind("force.load", "force");

  const CompiledObjectives objectives = BuildObjectives(test::GeneticTestObjective(rows), layout, model.Theta0());

  const std::vector<GeneticParameter> parameters = {{"mass", 1, 10}, {"spring", 100, 10000}, {"force", 1, 1000}};
  const auto evaluator = CreateCpuEvaluator();
  GeneticObjective batchObjective = MakeBatchObjective(*evaluator, layout, map, parameters,
                                                       DynamicSolverType::GeneralizedAlpha, settings, objectives);
  int batches = 0;
  const GeneticObjective objective = [&](const GeneticIndividuals& inds) {
    ++batches;
    return batchObjective(inds);
  };

  GeneticOptions go;
  go.randomStream = GeneticRandomStream::Numpy;  // Exudyn's numpy draws, bit for bit
  go.numberOfGenerations = 2;
  go.populationSize = 10;
  go.elitistRatio = 0.1;
  go.crossoverProbability = 0.1;
  go.rangeReductionFactor = 0.7;
  go.randomizerInitialization = 0;
  go.distanceFactor = 0.1;
  const GeneticResult r = GeneticOptimization(objective, parameters, go);
  EXPECT_EQ(batches, 2);

  const std::vector<Row> exudyn = ExudynGeneticEvaluations();
  ASSERT_EQ(r.NumberOfEvaluations(), exudyn.size());
  for (std::size_t i = 0; i < exudyn.size(); ++i) {
    SCOPED_TRACE("evaluation " + std::to_string(i));
    EXPECT_EQ(r.parameterHistory[i], (std::vector<double>{exudyn[i].x, exudyn[i].y, exudyn[i].z}));
    EXPECT_NEAR(r.valueHistory[i], exudyn[i].value, 1e-12 * exudyn[i].value);  // measured: <= 7e-16 relative
  }

  EXPECT_EQ(r.optimumParameters, (std::vector<double>{2.532848072009533, 6921.681730138393, 217.16911303068966}));
  const double vOpt = 0.0030262381366063158;
  EXPECT_NEAR(r.optimumValue, vOpt, 1e-12 * vOpt);  // measured: bit-equal
  const double testResult = r.optimumValue + 0.09814894553165972;
  EXPECT_NEAR(testResult, 0.10117518366826603, 1e-12 * 0.10117518366826603);

  // a failing system (mass 0 violates the rule) gives NaN, not an exception
  BatchResult full;
  const std::vector<double> v = EvaluateGenerationBatch(*evaluator, layout, map, {{0.0, 4000, 80}, {1.6, 4000, 80}},
                                                        DynamicSolverType::GeneralizedAlpha, settings, objectives, 0,
                                                        &full);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_NE(full.status[0], SolveStatus::ok);
  EXPECT_NEAR(v[1], 0.0, 1e-12);
  EXPECT_THROW(EvaluateGenerationBatch(*evaluator, layout, map, {{1.6, 4000}}, DynamicSolverType::GeneralizedAlpha,
                                       settings, objectives),
               ValidationError);
  EXPECT_THROW(MakeBatchObjective(*evaluator, layout, map, {{"mass", 1, 10}}, DynamicSolverType::GeneralizedAlpha,
                                  settings, objectives),
               ValidationError);
  EXPECT_THROW(MakeBatchObjective(*evaluator, layout, map, parameters, DynamicSolverType::GeneralizedAlpha, settings,
                                  objectives, 1),
               ValidationError);
}

}  // namespace
}  // namespace mbsweep
